# SPDX-License-Identifier: ISC
"""Figures of bench/gtsm_flood.py: per-run medians, skua/rival ratios, Markdown tables."""

import statistics

KERNEL_COLUMNS = ("TCPMinTTLDrop", "EmbryonicRsts", "SyncookiesSent", "ListenDrops",
                  "TCPDSACKOldSent")


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _get(res, *path):
    for key in path:
        if not isinstance(res, dict) or key not in res:
            return None
        res = res[key]
    return res


def summarise(results, order):
    """{run name: medians over the rounds that completed, and counts}, plus "ratios"."""
    out = {}
    for name in order:
        runs = [r for r in results if r.get("run") == name and r.get("ok")]
        rest = [r for r in results if r.get("run") == name and not r.get("ok")]
        s = {"rounds": len(runs), "skipped": next((r["skipped"] for r in rest
                                                   if "skipped" in r), None),
             "errors": [r["error"] for r in rest if "error" in r]}
        if runs:
            s["dut"], s["gtsm"] = runs[0]["dut"], runs[0]["gtsm"]
            for key, path in (("sent_pps", ("flood", "sent_pps")),
                              ("arrived_pct", ("flood", "arrived_pct")),
                              ("daemon_ms_idle", ("idle", "daemon_sched_s")),
                              ("daemon_ms_flood", ("flood", "daemon_sched_s")),
                              ("daemon_ticks_idle", ("idle", "daemon_cpu_s")),
                              ("daemon_ticks_flood", ("flood", "daemon_cpu_s")),
                              ("softirq_idle", ("idle", "softirq_s")),
                              ("softirq_flood", ("flood", "softirq_s")),
                              ("busy_idle", ("idle", "machine_busy_s")),
                              ("busy_flood", ("flood", "machine_busy_s")),
                              ("window_s", ("flood", "seconds")),
                              ("attack_us", ("flood", "attack_us_per_segment")),
                              ("attack_us_syn", ("flood", "attack_us_per_segment_stream",
                                                 "syn")),
                              ("attack_us_data", ("flood", "attack_us_per_segment_stream",
                                                  "data")),
                              ("request_sockets_max", ("request_sockets", "max")),
                              ):
                scale = 1000.0 if key.startswith("daemon_ms") else 1.0
                v = _median([_get(r, *path) for r in runs])
                s[key] = None if v is None else round(v * scale, 3)
            for stream in ("syn", "data"):
                s["sent_pps_" + stream] = _median([
                    _get(r, "forge", stream, "sent") / _get(r, "forge", stream, "seconds")
                    for r in runs if _get(r, "forge", stream, "seconds")])
            for c in KERNEL_COLUMNS:
                s[c] = _median([_get(r, "flood", "counters", "tcpext", c) or 0 for r in runs])
            for key, c in (("out_segs", "OutSegs"), ("out_rsts", "OutRsts")):
                s[key] = _median([_get(r, "flood", "counters", "tcp", c) or 0 for r in runs])
            s["survived"] = sum(1 for r in runs if _get(r, "session", "survived")
                                and _get(r, "session", "dut_survived"))
            s["session"] = [_session_text(r) for r in runs]
            down = [_get(r, "session", "first_down_s") for r in runs]
            s["peer_down_s"] = [d for d in down if d is not None]
        out[name] = s
    out_ratios = []
    for name, s in out.items():
        if not name.startswith("skua-") or not s["rounds"]:
            continue
        mode = name.split("-", 1)[1]
        for rival in ("frr", "bird"):
            r = out.get("%s-%s" % (rival, mode))
            if not r or not r["rounds"]:
                continue
            out_ratios.append({"skua": name, "rival": "%s-%s" % (rival, mode),
                               "daemon_cpu": _ratio(s["daemon_ms_flood"],
                                                    r["daemon_ms_flood"]),
                               "softirq": _ratio(s["softirq_flood"], r["softirq_flood"]),
                               "attack_path": _ratio(s["attack_us"], r["attack_us"])})
    return {"runs": out, "ratios": out_ratios}


def _ratio(a, b):
    if a is None or not b:
        return None
    return round(a / b, 2)


def _session_text(res):
    """The DUT's and the peer's view in a few words (times from the start of the flood)."""
    s = res.get("session", {})
    if s.get("survived") and s.get("dut_survived"):
        return "survived"
    before, dut, parts = s.get("dut_before", {}), s.get("dut_after", {}), []
    if not s.get("dut_survived"):
        text = "DUT:"
        if dut.get("log_not_synchronized"):
            text += " read the forged bytes (logged Connection Not Synchronized),"
        if dut.get("dropped") is not None and before.get("dropped") is not None:
            text += " %d connection(s) dropped," % (dut["dropped"] - before["dropped"])
        elif dut.get("last_reset"):
            text += " reset (%s)," % dut["last_reset"]
        parts.append(text + " %s at the end" % dut.get("state"))
    if not s.get("survived"):
        text = "peer: down"
        if "first_down_s" in s:
            text += " at +%.1f s" % s["first_down_s"]
        if s.get("last_reset"):
            text += " (%s)" % s["last_reset"]
        parts.append(text + ", %s at the end" % s.get("state_at_end"))
    return "DOWN: " + "; ".join(parts)


def _sessions_text(s):
    """One run: its text.  Several: how many survived, and the first failure's text with
    the peer's down times of every round."""
    if s["rounds"] == 1:
        return s["session"][0]
    if s["survived"] == s["rounds"]:
        return "survived (%d/%d)" % (s["survived"], s["rounds"])
    first = next(t for t in s["session"] if t != "survived")
    text = "%d/%d survived; %s" % (s["survived"], s["rounds"], first)
    if len(s["peer_down_s"]) > 1:
        text += " (peer down at %s s in the %d rounds)" % (
            ", ".join("+%.1f" % d for d in s["peer_down_s"]), len(s["peer_down_s"]))
    return text


def one_line(res):
    f, i = res["flood"], res["idle"]
    return ("%s: sent %d pps, %.1f%% arrived; daemon CPU %.1f ms idle, %.1f ms flood; "
            "attack path %s us/segment; softirq %.2f s idle, %.2f s flood; TCPMinTTLDrop +%d; "
            "request sockets max %s; %s"
            % (res["run"], f["sent_pps"], f["arrived_pct"], (i["daemon_sched_s"] or 0) * 1000,
               (f["daemon_sched_s"] or 0) * 1000, f.get("attack_us_per_segment", "?"),
               i["softirq_s"] or 0, f["softirq_s"] or 0,
               f["counters"]["tcpext"].get("TCPMinTTLDrop", 0),
               res["request_sockets"]["max"], _session_text(res)))


def _fmt(v, spec="%.0f"):
    return "-" if v is None else spec % v


def markdown(doc):
    meta, summary = doc["meta"], doc["summary"]
    rows = ["| run | DUT | sent (pps: all, SYN, data) | arrived (%) | daemon CPU idle / flood "
            "(ms) | daemon ticks flood (s) | attack path (µs/segment: all, SYN, data) | softirq "
            "idle / flood (s) | machine busy idle / flood (s) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    krows = ["| run | %s | request sockets (max) | Tcp OutSegs | Tcp OutRsts | session |"
             % " | ".join(KERNEL_COLUMNS), "|---|" + "---:|" * (len(KERNEL_COLUMNS) + 3)
             + "---|"]
    for name, s in summary["runs"].items():
        if not s["rounds"]:
            why = ("skipped: " + s["skipped"]) if s["skipped"] else \
                ("failed: " + "; ".join(e.splitlines()[0] for e in s["errors"])
                 if s["errors"] else "not run")
            rows.append("| %s | %s | | | | | | | |" % (name, why))
            continue
        dut = "%s%s" % (meta["versions"].get(s["dut"], s["dut"]),
                        ", GTSM" if s["gtsm"] else ", no GTSM")
        rows.append(("| %s | %s | %s, %s, %s | %s | %s / %s | %s | %s, %s, %s | %s / %s | "
                     "%s / %s |") % (
            name, dut, _fmt(s["sent_pps"]), _fmt(s["sent_pps_syn"]), _fmt(s["sent_pps_data"]),
            _fmt(s["arrived_pct"], "%.1f"),
            _fmt(s["daemon_ms_idle"], "%.1f"), _fmt(s["daemon_ms_flood"], "%.1f"),
            _fmt(s["daemon_ticks_flood"], "%.2f"), _fmt(s["attack_us"], "%.1f"),
            _fmt(s["attack_us_syn"], "%.1f"), _fmt(s["attack_us_data"], "%.1f"),
            _fmt(s["softirq_idle"], "%.2f"),
            _fmt(s["softirq_flood"], "%.2f"), _fmt(s["busy_idle"], "%.2f"),
            _fmt(s["busy_flood"], "%.2f")))
        krows.append("| %s | %s | %s | %s | %s | %s |" % (
            name, " | ".join(_fmt(s[c]) for c in KERNEL_COLUMNS),
            _fmt(s["request_sockets_max"]), _fmt(s["out_segs"]), _fmt(s["out_rsts"]),
            _sessions_text(s)))
    parts = ["GTSM flood: %s pps for %.0f s, %.0f%% SYNs, data segments %s; %s, %d CPUs, %s"
             % ("max" if not meta["rate"] else "%.0f" % meta["rate"], meta["duration"],
                meta["syn_share"] * 100, "in window" if meta["seq"] == "window" else "blind",
                meta["kernel"], meta["cpus"], meta["date"]), "", "\n".join(rows), "",
             "\n".join(krows)]
    if summary["ratios"]:
        parts += ["", "| skua | rival | daemon CPU in flood, skua / rival | attack path per "
                      "segment, skua / rival | softirq in flood, skua / rival |",
                  "|---|---|---:|---:|---:|"]
        for r in summary["ratios"]:
            parts.append("| %s | %s | %s | %s | %s |" % (
                r["skua"], r["rival"], _fmt(r["daemon_cpu"], "%.2f"),
                _fmt(r["attack_path"], "%.2f"), _fmt(r["softirq"], "%.2f")))
    parts += ["", "Command: `%s`" % meta["command"]]
    return "\n".join(parts)
