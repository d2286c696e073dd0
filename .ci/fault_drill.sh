#!/usr/bin/env bash
# The fault drill: shows that each smoke step of .ci/run fails on a planted fault and
# passes without it. Run after a CI build (the binaries in target/debug must exist):
#
#   bash .ci/fault_drill.sh
#
# Each fault is planted with stand-ins for the example binaries (CI_EXAMPLES points the
# smoke runs at them) or, for a ball inside a wall, with a table file whose served ball
# sits in the plunger lane's floor: the code under test is never edited. Prints one line
# per case, PASS when the step did what it must, and exits non-zero if any case did not.
# (The ball pit's and trajectory's checks are drilled by hand, with a planted edit: see
# the closing note of issue 28.)
set -euo pipefail
cd "$(dirname "$0")/.."

REAL=$PWD/target/debug/examples
DRILL=$PWD/target/fault-drill
rm -rf "$DRILL"
mkdir -p "$DRILL"
FAILED=0

# stand_in NAME BODY: an executable $DRILL/<case>/NAME running BODY (with $REAL set).
stand_in() {
  local dir=$1 name=$2 body=$3
  mkdir -p "$dir"
  printf '#!/usr/bin/env bash\nREAL=%q\n%s\n' "$REAL" "$body" >"$dir/$name"
  chmod +x "$dir/$name"
}

# expect WANT CASE STEP [ENV...]: run `.ci/run STEP` with ENV, and check that it failed
# (WANT=fail) or passed (WANT=pass).
expect() {
  local want=$1 case=$2 step=$3
  shift 3
  local log=$DRILL/$case.log status=0
  env "$@" bash .ci/run "$step" >"$log" 2>&1 || status=$?
  if { [ "$want" = fail ] && [ "$status" -ne 0 ]; } || { [ "$want" = pass ] && [ "$status" -eq 0 ]; }; then
    printf 'PASS  %-44s %s: exit %s\n' "$case" "$step" "$status"
  else
    printf 'FAIL  %-44s %s: exit %s, wanted %s (log: %s)\n' "$case" "$step" "$status" "$want" "$log"
    FAILED=1
  fi
}

# 1. The program exits 1 (after doing its work).
for name in trajectory bounce_lab pinball; do
  stand_in "$DRILL/exit1" "$name" '"$REAL/'"$name"'" "$@"; exit 1'
done
expect fail "trajectory exits 1" smoke_trajectory CI_EXAMPLES="$DRILL/exit1"
expect fail "bounce_lab exits 1 after its screenshot" smoke_bounce_lab CI_EXAMPLES="$DRILL/exit1"
expect fail "pinball headless exits 1" smoke_pinball_headless CI_EXAMPLES="$DRILL/exit1"
expect fail "pinball exits 1 after its screenshot" smoke_pinball_screenshot CI_EXAMPLES="$DRILL/exit1"

# 1b. The program crashes partway: a panic's exit status (101), or aborted (SIGABRT) while
#     it runs. (SIGSEGV from `kill` would not do: Rust's stack-overflow handler takes
#     the first one and the program runs on.)
stand_in "$DRILL/crash" trajectory 'exit 101'
stand_in "$DRILL/crash" bounce_lab '"$REAL/bounce_lab" "$@" & pid=$!; sleep 1; kill -ABRT $pid; wait $pid'
stand_in "$DRILL/crash" pinball '"$REAL/pinball" "$@" & pid=$!; sleep 10; kill -ABRT $pid; wait $pid'
expect fail "trajectory panics" smoke_trajectory CI_EXAMPLES="$DRILL/crash"
expect fail "bounce_lab crashes before its screenshot" smoke_bounce_lab CI_EXAMPLES="$DRILL/crash"
expect fail "pinball headless crashes" smoke_pinball_headless CI_EXAMPLES="$DRILL/crash"
# (The input session closes the app after about 10 s: its crash comes sooner.)
stand_in "$DRILL/crash-input" pinball '"$REAL/pinball" "$@" & pid=$!; sleep 4; kill -ABRT $pid; wait $pid'
expect fail "pinball crashes in the input session" smoke_pinball_input CI_EXAMPLES="$DRILL/crash-input"

# 2. A ball inside a wall: the served ball 3.5 mm above the plunger lane's floor (its
#    radius is 13.5), so the audit finds it 10 mm deep.
sed 's/ball_at: (493.0, 60.0)/ball_at: (493.0, 50.0)/' assets/tables/starfall.ron >"$DRILL/buried.ron"
grep -q 'ball_at: (493.0, 50.0)' "$DRILL/buried.ron"
stand_in "$DRILL/buried" pinball 'exec "$REAL/pinball" --table '"$DRILL/buried.ron"' "$@"'
expect fail "pinball: a served ball inside a wall" smoke_pinball_headless CI_EXAMPLES="$DRILL/buried"

# 3. The replay differs: the replayed run reports one more point.
stand_in "$DRILL/replay" pinball 'case " $* " in
  *" --replay "*) "$REAL/pinball" "$@" | awk '"'"'/^  score:/ { sub(/[0-9]+$/, $NF + 1) } { print }'"'"' ;;
  *) exec "$REAL/pinball" "$@" ;;
esac'
expect fail "pinball: the replay ends one point apart" smoke_pinball_headless CI_EXAMPLES="$DRILL/replay"

# 3b. A summary that leaves out its faults line, and an input session whose state on exit
#     reports a fault.
stand_in "$DRILL/quiet" pinball '"$REAL/pinball" "$@" | grep -v "^  faults:"'
expect fail "pinball: a summary without its faults line" smoke_pinball_headless CI_EXAMPLES="$DRILL/quiet"
stand_in "$DRILL/capped" pinball '"$REAL/pinball" "$@" | sed "s/^  capped steps: *0 /  capped steps:          1 /"'
expect fail "pinball: a step at the bounce cap" smoke_pinball_headless CI_EXAMPLES="$DRILL/capped"
stand_in "$DRILL/statefault" pinball 'out=""; prev=""
for a in "$@"; do [ "$prev" = --state-out ] && out=$a; prev=$a; done
"$REAL/pinball" "$@"; status=$?
[ -n "$out" ] && sed -i "s/^    faults: 0,/    faults: 1,/" "$out"
exit $status'
expect fail "pinball input: the state on exit has a fault" smoke_pinball_input CI_EXAMPLES="$DRILL/statefault"

# 4. A blank frame: the screenshot replaced by one of the clear colour alone.
for name in bounce_lab pinball; do
  stand_in "$DRILL/blank" "$name" 'shot=""; prev=""
for a in "$@"; do [ "$prev" = --screenshot ] && shot=$a; prev=$a; done
"$REAL/../screenshot_check" blank "$shot" --size 1280x720 --fill 080910'
done
expect fail "bounce_lab: a blank frame" smoke_bounce_lab CI_EXAMPLES="$DRILL/blank"
expect fail "pinball: a blank frame" smoke_pinball_screenshot CI_EXAMPLES="$DRILL/blank"

# 4b. Block it: the program exits 1, crashes, replays a block apart, leaves out a
#     fault line, reports an escape or a slow top speed, or shows a blank frame.
stand_in "$DRILL/exit1" block_it '"$REAL/block_it" "$@"; exit 1'
expect fail "block_it headless exits 1" smoke_block_it_headless CI_EXAMPLES="$DRILL/exit1"
expect fail "block_it exits 1 after its screenshot" smoke_block_it_screenshot CI_EXAMPLES="$DRILL/exit1"
stand_in "$DRILL/crash" block_it '"$REAL/block_it" "$@" & pid=$!; sleep 0.2; kill -ABRT $pid; wait $pid'
expect fail "block_it headless crashes" smoke_block_it_headless CI_EXAMPLES="$DRILL/crash"
stand_in "$DRILL/replay" block_it 'case " $* " in
  *" --replay "*) "$REAL/block_it" "$@" | awk '"'"'/^  blocks:/ { sub(/[0-9]+$/, $NF + 1) } { print }'"'"' ;;
  *) exec "$REAL/block_it" "$@" ;;
esac'
expect fail "block_it: the replay ends one block apart" smoke_block_it_headless CI_EXAMPLES="$DRILL/replay"
stand_in "$DRILL/quiet" block_it '"$REAL/block_it" "$@" | grep -v "^  escapes through an active gate:"'
expect fail "block_it: a summary without an escape line" smoke_block_it_headless CI_EXAMPLES="$DRILL/quiet"
stand_in "$DRILL/escape" block_it '"$REAL/block_it" "$@" | sed "s/^  escapes through a solid wall: *0$/  escapes through a solid wall:   1/"'
expect fail "block_it: an escape through a solid wall" smoke_block_it_headless CI_EXAMPLES="$DRILL/escape"
stand_in "$DRILL/slow" block_it '"$REAL/block_it" "$@" | sed -E "s/^(  top speed: +)[0-9]+/\\119999/"'
expect fail "block_it: a top speed under 20,000" smoke_block_it_headless CI_EXAMPLES="$DRILL/slow"
stand_in "$DRILL/blank" block_it 'shot=""; prev=""
for a in "$@"; do [ "$prev" = --screenshot ] && shot=$a; prev=$a; done
"$REAL/../screenshot_check" blank "$shot" --size 1280x720 --fill 080910'
expect fail "block_it: a blank frame" smoke_block_it_screenshot CI_EXAMPLES="$DRILL/blank"

# 5. Without a fault, each step passes.
expect pass "trajectory, no fault" smoke_trajectory
expect pass "bounce_lab, no fault" smoke_bounce_lab
expect pass "pinball headless, no fault" smoke_pinball_headless
expect pass "pinball screenshot, no fault" smoke_pinball_screenshot
expect pass "pinball input, no fault" smoke_pinball_input
expect pass "block_it headless, no fault" smoke_block_it_headless
expect pass "block_it screenshot, no fault" smoke_block_it_screenshot

exit "$FAILED"
