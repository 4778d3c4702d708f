#!/bin/sh
# SPDX-License-Identifier: ISC
# Smoke test of bench/bgp_blaster over 127.0.0.1 (no root needed): a sink and an injector
# exchange 50,000 prefixes in 10-prefix attribute sets; both must exit 0 and report the
# counts. Then the exit codes of a few failures. Everything is bounded by --timeout.
set -u
B=${BLASTER:-./bench/bgp_blaster}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; for f in "$dir"/*; do echo "== $f"; cat "$f"; done; exit 1; }

# A port of our own: another test running at the same time is unlikely to pick it.
port=$((20000 + $$ % 20000))

# The injector lingers; the sink lingers 3 s after it holds everything, and meanwhile the
# injector is stopped with SIGTERM: both exit 0 (signal after the goal; Cease after the goal).
"$B" --listen 127.0.0.1 --port $port --local-as 65002 --peer-as 65001 --expect 50000 \
	--timeout 30 --linger 3 --name sink >"$dir/sink.json" 2>"$dir/sink.err" &
sink=$!
"$B" --connect 127.0.0.1 --port $port --local-as 65001 --peer-as 65002 --inject 50000 \
	--per-set 10 --path-len 3 --communities 2 --order random --next-hop 192.0.2.1 \
	--timeout 30 --name inj >"$dir/inj.json" 2>"$dir/inj.err" &
inj=$!
i=0
until grep -q '"event":"reached"' "$dir/sink.json"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill $inj $sink; fail "the sink never held the table"; }
	sleep 0.1
done
kill -TERM $inj
wait $inj
inj_rc=$?
wait $sink
sink_rc=$?
[ $inj_rc -eq 0 ] || fail "injector exit $inj_rc"
[ $sink_rc -eq 0 ] || fail "sink exit $sink_rc"
grep -q '"event":"result".*"exit":0.*"count":50000,"announced":50000,"withdrawn":0' \
	"$dir/sink.json" || fail "sink result"
grep -q '"event":"result".*"sent":50000,"out_updates":5000,' "$dir/inj.json" ||
	fail "injector result"
grep -q '"why":"signal received"' "$dir/inj.json" || fail "injector not stopped by the signal"

# --shape internet and SIGUSR1: the sink holds the 20,000 shaped prefixes, then, once the
# injector withdraws them all explicitly, none ("emptied"); the injector says "withdrawn".
"$B" --listen 127.0.0.1 --port $port --local-as 65002 --peer-as 65001 --expect 20000 \
	--timeout 30 --linger -1 --name sink2 >"$dir/sink2.json" 2>"$dir/sink2.err" &
sink=$!
"$B" --connect 127.0.0.1 --port $port --local-as 65001 --peer-as 65002 --inject 20000 \
	--shape internet --seed 3 --next-hop 192.0.2.1 --timeout 30 --name inj2 \
	>"$dir/inj2.json" 2>"$dir/inj2.err" &
inj=$!
i=0
until grep -q '"event":"reached"' "$dir/sink2.json"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill $inj $sink; fail "the sink never held the shaped table"; }
	sleep 0.1
done
grep -q '"event":"reached".*"in_updates":8000,' "$dir/sink2.json" ||
	{ kill $inj $sink; fail "not 2.5 prefixes per UPDATE"; }
kill -USR1 $inj
i=0
until grep -q '"event":"emptied".*"count":0,"announced":20000,"withdrawn":20000' \
	"$dir/sink2.json"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill $inj $sink; fail "the withdrawal did not empty the sink"; }
	sleep 0.1
done
kill -TERM $inj
wait $inj
inj_rc=$?
wait $sink
sink_rc=$?
[ $inj_rc -eq 0 ] || fail "shaped injector exit $inj_rc"
[ $sink_rc -eq 0 ] || fail "shaped sink exit $sink_rc"
grep -q '"event":"withdrawn".*"withdrawn_sent":20000,"t_first_withdraw":[0-9]' \
	"$dir/inj2.json" || fail "injector withdrawn event"

# Nobody listening: retried until the timeout, exit 3.
"$B" --connect 127.0.0.1 --port $port --local-as 65001 --timeout 1 --quiet >"$dir/t.json"
rc=$?
[ $rc -eq 3 ] || fail "timeout exit $rc"
grep -q '"exit":3' "$dir/t.json" || fail "timeout result"
# Usage errors: exit 1.
"$B" --connect 127.0.0.1 2>/dev/null
[ $? -eq 1 ] || fail "missing --local-as"
"$B" --connect 127.0.0.1 --local-as 1 --inject 2000000 --plen 32 --start 255.255.0.0/16 \
	2>/dev/null
[ $? -eq 1 ] || fail "range check"
# Bad peer AS: the OPEN is refused, exit 2 on both sides.
"$B" --listen 127.0.0.1 --port $port --local-as 65002 --peer-as 65009 --timeout 10 \
	--quiet >"$dir/bad.json" &
bad=$!
"$B" --connect 127.0.0.1 --port $port --local-as 65001 --timeout 10 --quiet >"$dir/bad2.json"
rc=$?
wait $bad
brc=$?
[ $brc -eq 2 ] || fail "OPEN check exit $brc"
[ $rc -eq 2 ] || fail "peer of a refused OPEN exit $rc"
echo "1 passed, 0 failed"
exit 0
