#!/usr/bin/env bash
# Input smoke test: the pinball window driven by real X input, as a person would play it.
#
#   .ci/input_smoke.sh BINARY OUTDIR
#
# Starts its own Xvfb (the server picks a free display), runs BINARY (the pinball example,
# no autoplay) with `--state-out` and `--print-ui-rects`, and with xdotool: presses N (new
# game), clicks the panel's "Add ball" button, holds Space (plunger), holds Left Shift
# then Right Shift (flippers), drags the "wall restitution" slider, and closes the window
# the way a window manager does (WM_DELETE_WINDOW). The app writes its state file on each
# F9 and on exit; every check reads those files and prints PASS or FAIL. Exits non-zero on
# any failure. Needs Xvfb, xdotool and python3 (for the close message, through libX11).
set -euo pipefail

BINARY=${1:?usage: input_smoke.sh BINARY OUTDIR}
OUT=${2:?usage: input_smoke.sh BINARY OUTDIR}
WINDOW=${WINDOW:-1280x720}
TITLE="bevy_circle_ccd pinball"

# Time limits, seconds. The debug build renders about 5 frames a second under lavapipe,
# and the app reads a key or writes a snapshot once a frame: a few frames are enough, the
# limits only end a hung run.
START_LIMIT=60      # the window up and the panel laid out
POLL_LIMIT=15       # a snapshot to appear, or the state to become what is waited for
EXIT_LIMIT=30       # the app to exit after the window is closed
POLL_INTERVAL=0.1   # between looks at a file
PLUNGER_HOLD=1.5    # Space held, as a player pulls the plunger (a full pull takes 1 s)
CLICK_HOLD=0.3      # the pointer at rest before a press, and a button held down: a frame or more
DRAG_STEPS=10       # mouse moves in a slider drag

# What the checks accept.
RAISED_DEGREES=25   # a held flipper is up: half the classic table's 50° stroke
REST_DEGREES=1      # a released flipper is back at rest
PULLED=0.5          # the plunger pulled at least half way while Space was held
DRAG_FROM=0.3       # the slider drag, as fractions of its rail's width
DRAG_TO=0.9

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
STATE=$OUT/input-state.ron
RECTS=$OUT/input-ui-rects.txt
LOG=$OUT/input-app.log
rm -f "$STATE" "$OUT"/input-state-*.ron "$RECTS" "$LOG" "$OUT/input-display"

FAILED=0
pass() { printf 'PASS  %s\n' "$1"; }
fail() {
  printf 'FAIL  %s\n' "$1"
  FAILED=1
}
die() {
  printf 'FAIL  %s\n' "$1"
  exit 1
}

APP_PID=""
XVFB_PID=""
cleanup() {
  if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then
    kill "$APP_PID" 2>/dev/null || true
  fi
  if [ -n "$XVFB_PID" ]; then
    kill "$XVFB_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

# wait_until LIMIT COMMAND...: poll COMMAND until it succeeds, at most LIMIT seconds.
wait_until() {
  local limit=$1 started=$SECONDS
  shift
  until "$@"; do
    if [ $((SECONDS - started)) -ge "$limit" ]; then
      return 1
    fi
    sleep "$POLL_INTERVAL"
  done
}

# --- the display and the app ---------------------------------------------------------
Xvfb -displayfd 3 -screen 0 "${WINDOW}x24" -nolisten tcp 3>"$OUT/input-display" 2>"$OUT/input-xvfb.log" &
XVFB_PID=$!
wait_until "$START_LIMIT" test -s "$OUT/input-display" || die "Xvfb started"
export DISPLAY=":$(head -n1 "$OUT/input-display")"
echo "Xvfb on $DISPLAY"

"$BINARY" --window "${WINDOW:-1280x720}" --state-out "$STATE" --print-ui-rects >"$RECTS" 2>"$LOG" &
APP_PID=$!
# alive: the app still runs (else stop at once, pointing at its log).
alive() { kill -0 "$APP_PID" 2>/dev/null || die "the app is running (it exited early: see $LOG)"; }
WIN=""
window_up() {
  alive
  WIN=$(xdotool search --name "$TITLE" 2>/dev/null | head -n1) || true
  [ -n "$WIN" ]
}
wait_until "$START_LIMIT" window_up || die "the window appeared"
xdotool windowfocus --sync "$WIN"
# The panel prints where its widgets are once it has been laid out.
panel_up() { alive && grep -q '^ui-rect add_ball ' "$RECTS"; }
wait_until "$START_LIMIT" panel_up || die "the panel was drawn"
echo "window $WIN is up, its panel drawn, after ${SECONDS} s"

# --- reading the state ---------------------------------------------------------------
# snapshot NAME: press F9 and keep the file it writes as input-state-NAME.ron.
snapshot() {
  rm -f "$STATE"
  # Each command says what failed: `snapshot` runs inside `if` and `||` (snapshot_until),
  # where errexit is off.
  alive
  xdotool key F9 || die "F9 was sent for snapshot $1"
  wait_until "$POLL_LIMIT" test -s "$STATE" || die "a snapshot ($1) was written on F9"
  mv "$STATE" "$OUT/input-state-$1.ron" || die "snapshot $1 was kept"
}

# field NAME FIELD: a top-level or tuning field of snapshot NAME.
field() {
  awk -v name="$2:" '$1 == name { v = $2; gsub(/[",]/, "", v); print v; exit }' "$OUT/input-state-$1.ron"
}

# flipper NAME SIDE: that flipper's rise in degrees in snapshot NAME.
flipper() {
  awk -v side="$2" '
    /side:/ { gsub(/[",]/, "", $2); s = $2 }
    /theta_degrees:/ { gsub(/,/, "", $2); if (s == side) print $2 }
  ' "$OUT/input-state-$1.ron"
}

# is A OP B: a numeric comparison (awk, for decimals).
is() { awk -v a="$1" -v b="$3" "BEGIN { exit !(a $2 b) }"; }

# snapshot_until NAME TEST...: snapshots NAME until TEST (run after each) succeeds.
snapshot_until() {
  local name=$1 started=$SECONDS
  shift
  while true; do
    snapshot "$name"
    if "$@"; then
      return 0
    fi
    if [ $((SECONDS - started)) -ge "$POLL_LIMIT" ]; then
      return 1
    fi
  done
}

# x11 keydown|keyup KEYSYM, x11 close WINDOW: through libX11 and libXtst (xdotool's own
# libraries). xdotool's keydown of a right-hand modifier (Shift_R) also presses the
# left-hand one, so held keys go through XTest here; and xdotool 3.2016 has no
# WM_DELETE_WINDOW close (its windowclose destroys the window under the app).
x11() {
  python3 - "$@" <<'PY'
import ctypes, sys
x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
xtst = ctypes.cdll.LoadLibrary("libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]


class ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
                ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
                ("data", ctypes.c_long * 5)]


class XEvent(ctypes.Union):  # XEvent is a union padded to 24 longs
    _fields_ = [("xclient", ClientMessage), ("pad", ctypes.c_long * 24)]


CLIENT_MESSAGE, NO_EVENT_MASK, CURRENT_TIME = 33, 0, 0
action, arg = sys.argv[1], sys.argv[2]
display = x11.XOpenDisplay(None)
if not display:
    sys.exit("cannot open the display")
if action == "close":
    event = XEvent()
    event.xclient.type = CLIENT_MESSAGE
    event.xclient.window = int(arg)
    event.xclient.message_type = x11.XInternAtom(display, b"WM_PROTOCOLS", 0)
    event.xclient.format = 32
    event.xclient.data[0] = x11.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
    x11.XSendEvent(display, event.xclient.window, 0, NO_EVENT_MASK, ctypes.byref(event))
else:
    keycode = x11.XKeysymToKeycode(display, x11.XStringToKeysym(arg.encode()))
    if keycode == 0:
        sys.exit("no keycode for " + arg)
    xtst.XTestFakeKeyEvent(display, keycode, int(action == "keydown"), CURRENT_TIME)
x11.XFlush(display)
x11.XCloseDisplay(display)
PY
}

# click X Y: a left click at window coordinates.
click() {
  xdotool mousemove --window "$WIN" "$1" "$2"
  sleep "$CLICK_HOLD"
  xdotool mousedown 1
  sleep "$CLICK_HOLD"
  xdotool mouseup 1
}

# rect NAME: the last printed rectangle of a marked widget, "x0 y0 x1 y1".
rect() { grep "^ui-rect $1 " "$RECTS" | tail -n1 | cut -d' ' -f3-; }

# --- the test ------------------------------------------------------------------------
snapshot start
WALL_DEFAULT=$(field start wall_restitution)
GAMES0=$(field start games)

xdotool key n
new_game() { [ "$(field new games)" -gt "$GAMES0" ]; }
if snapshot_until new new_game && [ "$(field new game_over)" = false ] && [ "$(field new ball_number)" = 1 ]; then
  pass "N starts a game: games $GAMES0 -> $(field new games), game_over false, ball 1"
else
  fail "N starts a game: games $(field new games), game_over $(field new game_over), ball $(field new ball_number)"
fi

IN_PLAY0=$(field new balls_in_play)
read -r X0 Y0 X1 Y1 <<<"$(rect add_ball)"
click $(((X0 + X1) / 2)) $(((Y0 + Y1) / 2))
added() { [ "$(field added balls_in_play)" -eq $((IN_PLAY0 + 1)) ]; }
if snapshot_until added added; then
  pass "the panel's Add ball button adds a ball: $IN_PLAY0 -> $(field added balls_in_play) in play"
else
  fail "the panel's Add ball button adds a ball: $IN_PLAY0 -> $(field added balls_in_play) in play"
fi

x11 keydown space
sleep "$PLUNGER_HOLD"
# A slow frame rate slows the game's clock (Bevy caps a frame's time step), so the pull
# may still be growing: it is read until it is far enough, Space still held.
pulled() { [ "$(field pulled plunger_held)" = true ] && is "$(field pulled plunger_pull)" '>=' "$PULLED"; }
PULL_OK=0
snapshot_until pulled pulled || PULL_OK=$?
x11 keyup space
PULL=$(field pulled plunger_pull)
if [ "$PULL_OK" -eq 0 ]; then
  pass "Space pulls the plunger: held, pulled $PULL"
else
  fail "Space pulls the plunger: held $(field pulled plunger_held), pulled $PULL"
fi
launched() { [ "$(field launched balls_in_plunger_lane)" = 0 ]; }
if snapshot_until launched launched && [ "$(field launched ball_number)" = 1 ]; then
  pass "releasing Space launches the ball: none left in the plunger lane, still ball 1"
else
  fail "releasing Space launches the ball: $(field launched balls_in_plunger_lane) in the lane, ball $(field launched ball_number)"
fi

# flip KEY SIDE OTHER: hold KEY; SIDE's flipper must rise and OTHER's stay at rest; released,
# SIDE's must fall back.
flip() {
  local key=$1 side=$2 other=$3
  x11 keydown "$key"
  up() { is "$(flipper "held-$side" "$side")" '>=' "$RAISED_DEGREES"; }
  if snapshot_until "held-$side" up && is "$(flipper "held-$side" "$other")" '<' "$REST_DEGREES"; then
    pass "$key raises the $side flipper: $(flipper "held-$side" "$side")° ($other at $(flipper "held-$side" "$other")°)"
  else
    fail "$key raises the $side flipper: $(flipper "held-$side" "$side")° ($other at $(flipper "held-$side" "$other")°)"
  fi
  x11 keyup "$key"
  down() { is "$(flipper "released-$side" "$side")" '<' "$REST_DEGREES"; }
  if snapshot_until "released-$side" down; then
    pass "released, the $side flipper is back at rest: $(flipper "released-$side" "$side")°"
  else
    fail "released, the $side flipper is back at rest: $(flipper "released-$side" "$side")°"
  fi
}
flip Shift_L Left Right
flip Shift_R Right Left

read -r X0 Y0 X1 Y1 <<<"$(rect wall_restitution_rail)"
Y=$(((Y0 + Y1) / 2))
xdotool mousemove --window "$WIN" "$(awk -v a="$X0" -v b="$X1" -v f="$DRAG_FROM" 'BEGIN { printf "%d", a + (b - a) * f }')" "$Y"
sleep "$CLICK_HOLD"
xdotool mousedown 1
for i in $(seq 1 "$DRAG_STEPS"); do
  sleep "$POLL_INTERVAL"
  xdotool mousemove --window "$WIN" "$(awk -v a="$X0" -v b="$X1" -v f="$DRAG_FROM" -v g="$DRAG_TO" -v i="$i" -v n="$DRAG_STEPS" \
    'BEGIN { printf "%d", a + (b - a) * (f + (g - f) * i / n) }')" "$Y"
done
sleep "$CLICK_HOLD"
xdotool mouseup 1
dragged() { is "$(field dragged wall_restitution)" '>' "$WALL_DEFAULT"; }
if snapshot_until dragged dragged; then
  pass "dragging the wall restitution slider: $WALL_DEFAULT (the table's) -> $(field dragged wall_restitution)"
else
  fail "dragging the wall restitution slider: $WALL_DEFAULT (the table's) -> $(field dragged wall_restitution)"
fi

# Close the window as a window manager does: a WM_DELETE_WINDOW client message.
rm -f "$STATE"
x11 close "$WIN"
if wait_until "$EXIT_LIMIT" bash -c "! kill -0 $APP_PID 2>/dev/null"; then
  STATUS=0
  wait "$APP_PID" || STATUS=$?
  APP_PID=""
  if [ "$STATUS" -eq 0 ]; then
    pass "closing the window exits the app (status 0)"
  else
    fail "closing the window exits the app (status $STATUS)"
  fi
else
  fail "closing the window exits the app (still running after $EXIT_LIMIT s)"
fi
if [ -s "$STATE" ] && grep -q 'reason: "exit"' "$STATE"; then
  mv "$STATE" "$OUT/input-state-exit.ron"
  pass "the state file is written on exit: wall restitution $(field exit wall_restitution)"
  # The audit ran all along: no escape, NaN, fault or repair in the whole session.
  for count in escapes nan faults repairs; do
    if [ "$(field exit "$count")" = 0 ]; then
      pass "no $count over the session"
    else
      fail "no $count over the session: $(field exit "$count")"
    fi
  done
else
  fail "the state file is written on exit"
fi

echo "input smoke test: ${SECONDS} s, snapshots in $OUT/input-state-*.ron, app log $LOG"
if [ "$FAILED" -ne 0 ]; then
  echo "input smoke test FAILED" >&2
  exit 1
fi
echo "input smoke test passed"
