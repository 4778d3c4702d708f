#!/bin/sh
# SPDX-License-Identifier: ISC
# Plumbing of bench/edge_bench.py: every scenario against skua alone with a tiny table (2,000
# IPv4, 1,000 IPv6 prefixes), in a few seconds. No figure is judged: each scenario must end
# with its fields measured, the hold-time-3 session kept and every shell call answered, and the
# results files written. Needs root (network namespaces): skipped (77) otherwise. The script
# removes its namespaces and processes itself; this test only removes its output directory.
set -u
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces"; exit 77; }
[ -x /usr/bin/python3 ] || { echo "SKIP: no /usr/bin/python3"; exit 77; }
[ -x ./bgpd/bgpd ] && [ -x ./bench/bgp_blaster ] && [ -x ./vtysh/vtysh ] ||
	{ echo "SKIP: run from a build directory with bgpd, vtysh and bgp_blaster built"; exit 77; }
src=${srcdir:-.}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# With perf on the machine, two phases are also profiled (--profile): each must leave its data.
profile=
command -v perf >/dev/null && perf record -o /dev/null true >/dev/null 2>&1 &&
	profile="--profile transfer,second_feed"
timeout 300 /usr/bin/python3 "$src/bench/edge_bench.py" --duts skua --prefixes 2000 \
	--prefixes6 1000 --timeout 60 --settle 0.2 --build-dir "$PWD" --out-dir "$dir" $profile \
	>"$dir/stdout" 2>"$dir/stderr"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: edge_bench.py exit $rc"
	cat "$dir/stdout" "$dir/stderr"
	exit 1
fi
/usr/bin/python3 - "$dir" "$profile" <<'PY' || { cat "$dir/stderr"; exit 1; }
import glob, json, os, sys
files = glob.glob(sys.argv[1] + "/edge_bench-2000-*.json")
assert len(files) == 1 and glob.glob(sys.argv[1] + "/edge_bench-2000-*.md"), files
data = json.load(open(files[0]))
need = {"transfer_s", "transfer_cpu_s", "vmhwm_kib", "rss_empty_kib", "shell_max_ms"}
withdrawal = {"withdraw_s", "withdraw_cpu_s", "withdraw_cpu_idle_s", "rss_after_withdraw_kib", "rss_after_vs_empty",
              "anon_after_withdraw_kib", "anon_after_vs_empty",
              "transfer_again_s", "session_drop_s", "session_drop_cpu_s"}
fields = {"v4": need | withdrawal, "v6": need | withdrawal,
          "two-feeders": need | {"second_feed_s", "second_feed_cpu_s", "second_vs_first",
                                 "second_feed_resent", "failover_s", "failover_cpu_s"},
          "route-map": need}
runs = {r["scenario"]: r for r in data["runs"]}
assert set(runs) == set(fields), runs.keys()
for sc, keys in fields.items():
    r = runs[sc]
    assert r["ok"], (sc, r.get("error"))
    missing = [k for k in keys if r.get(k) is None]
    assert not missing, (sc, missing)
    assert r["hold_ok"] is True, (sc, r.get("watch_why"))
    assert r["shell_samples"] >= 1 and r["shell_failed"] == 0, (sc, r["shell_failures"])
    assert r["prefixes"] == (1000 if sc == "v6" else 2000), (sc, r["prefixes"])
assert data["summary"]["route-map"]["skua"].get("vs_unfiltered") is not None
if sys.argv[2]:
    # transfer in every scenario, second_feed in two-feeders only; none of another phase
    want = {"perf-%s-skua-1-transfer.data" % sc for sc in fields} | \
        {"perf-two-feeders-skua-1-second_feed.data"}
    got = {os.path.basename(p) for p in glob.glob(sys.argv[1] + "/perf-*.data")}
    assert got == want, (sorted(got), sorted(want))
    for name in want:
        assert os.path.getsize(os.path.join(sys.argv[1], name)) > 0, name
print("1 passed, 0 failed")
PY
