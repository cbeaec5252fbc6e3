#!/bin/sh
# Stand-in for a Pharo run under gctune verify, as in
#     gctune verify STUDY -- sh standin.sh {eden} {st} [MODE]
# It takes 0.3 s under --edenSize=16m (the default eden) and 0.1 s under anything else, and
# prints a gctune-stats line as the measuring snippet does. MODE: fail (exit 3 with two lines
# on standard error), fail-best (fail only under the best configuration), hang (sleep 60 s),
# gc-only (the stats line gives wall and GC time only).
eden="$1"
st="$2"
mode="${3:-}"
[ -f "$st" ] || { echo "standin: no startup script at $st" >&2; exit 4; }
[ "$GCTUNE_EDEN_FLAG" = "$eden" ] || { echo "standin: GCTUNE_EDEN_FLAG=$GCTUNE_EDEN_FLAG but {eden}=$eden" >&2; exit 5; }
[ "$GCTUNE_ST" = "$st" ] || { echo "standin: GCTUNE_ST=$GCTUNE_ST but {st}=$st" >&2; exit 5; }
case "$mode" in
fail) echo "standin: something broke" >&2; echo "standin: giving up" >&2; exit 3 ;;
fail-best) [ "$GCTUNE_CONFIG" = best ] && { echo "standin: best broke" >&2; exit 3; } ;;
hang) sleep 60 ;;
esac
if [ "$mode" = gc-only ]; then
	case "$eden" in --edenSize=16m) sleep 0.3; ms=300; gc=200 ;; *) sleep 0.1; ms=100; gc=5 ;; esac
	echo "gctune-stats {\"wallMs\":$ms,\"gcMs\":$gc}"
elif [ "$eden" = "--edenSize=16m" ]; then
	sleep 0.3
	echo 'gctune-stats {"wallMs":300,"gcMs":200,"scavenges":10,"scavengeMs":50,"fullGCs":2,"fullGCMs":150}'
else
	sleep 0.1
	echo 'gctune-stats {"wallMs":100,"gcMs":5,"scavenges":1,"scavengeMs":5,"fullGCs":0,"fullGCMs":0}'
fi
