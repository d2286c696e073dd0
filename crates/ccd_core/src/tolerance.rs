//! Every tolerance and every cap of `ccd_core`, in one place, each with its units and its
//! reason (as Box2D keeps its `constants.h`).
//!
//! The static pair queries use no tolerance at all: they decide with exact sign tests
//! (approaching means `motion · normal < 0`). Tolerances appear only where a float result
//! is turned back into a decision. Every loop of the crate that could run long has a hard
//! cap here, and the count it reached is reported where it stops.
//!
//! | where | tolerances | caps |
//! |---|---|---|
//! | response | [`DEGENERATE_LENGTH_REL`], [`SEPARATION_SPEED_REL`] | |
//! | chains (polylines, polygons) | [`CHAIN_VERTEX_SLOP_REL`] | |
//! | arcs | [`ARC_RIDE_SAG_REL`], [`FULL_TURN_SLACK_REL`], [`MAX_RIDE_HALF_ANGLE`] | [`MAX_ARC_ENTRIES`] |
//! | rides (lasting contacts on circles) | [`RIDE_TOLERANCE`], [`MAX_RIDE_STEP_ANGLE`], [`RIDE_SEARCH_SAG_REL`], [`END_FOOT_SLOP_REL`], [`RIDE_ROUNDING_WORK_MAX_REL`] | [`MAX_RIDE_STEPS`], [`MAX_RIDE_RUNS`], [`MAX_RIDE_EVENT_HALVINGS`] |
//! | slides (lasting contacts on faces) | [`SEAM_FLAT_SIN`], [`SLIDE_SEAT_ULPS`] | |
//! | curved sweeps (gravity) | [`ROOT_BRACKET_REL`], [`CHORD_WINDOW_MARGIN_REL`] | [`MAX_ROOT_ITERATIONS`] |
//! | moving segment sweep | [`MOVING_SEGMENT_TOLERANCE_REL`], [`MOVING_SEGMENT_ACCEPT_BAND`] | [`MAX_MOVING_SEGMENT_ITERATIONS`], [`MAX_MOVING_SEGMENT_RESTARTS`] |
//! | multi-bounce sweep | [`SIMULTANEOUS_TIME_REL`] | [`DEFAULT_MAX_BOUNCES`], [`MAX_WEDGE_BOUNCES`], [`MAX_SENSOR_HITS_PER_LEG`] |
//! | simultaneous contacts (corners, stops, squeezes, clusters) | [`SIMULTANEOUS_SOLVE_TOLERANCE_REL`], [`SQUEEZE_SPEED_SLACK_REL`] | [`MAX_SIMULTANEOUS_ROUNDS`], [`MAX_INSTANT_ROWS`], [`MAX_INSTANT_BALLS`], [`MAX_INSTANT_HINGES`] |
//! | multiball events | [`SIMULTANEOUS_TIME_REL`], [`TOUCH_SLOP_REL`], [`PRESS_SLACK_REL`], [`RESTING_EVENT_FRACTION`], [`CONTACT_SOLVE_TOLERANCE`] | [`DEFAULT_EVENTS_PER_BALL`], [`MIN_EVENT_BUDGET`], [`MAX_SIMULTANEOUS_PASSES`] |
//! | resting contacts and overlaps | [`RESTING_SOLVE_TOLERANCE_REL`], [`ALLOWED_OVERLAP_REL`], [`OVERLAP_CORRECTION_FRACTION`], [`CORRECTION_SLIDE_MIN_REL`] | [`RESTING_ITERATIONS`], [`OVERLAP_CORRECTION_ITERATIONS`], [`MAX_CORRECTION_SLIDES`] |
//! | broadphases | | [`MAX_CELLS_PER_OBSTACLE`], [`MAX_GRID_CELLS`], [`MAX_BALL_GRID_CELLS_PER_AXIS`] |
//! | hinged bodies | [`HINGE_LIMIT_SLOP`], [`HINGE_RESTING_PUSHES`] | [`MAX_HINGE_LIMIT_HITS`] |
//! | the audit (after a step) | [`PENETRATION_SLOP_REL`] | |

/// Dimensionless. A length whose magnitude is below this fraction of the query's
/// coordinate scale is rounding noise, so a direction taken from it is meaningless.
///
/// 8 ulps of `1.0`: the error of a handful of f32 subtractions and products.
pub const DEGENERATE_LENGTH_REL: f32 = 8.0 * f32::EPSILON;

/// Dimensionless. After a contact removes the normal component of a velocity (resting
/// contact, [`ResponseMode::Slide`](crate::ResponseMode::Slide), or restitution 0), this
/// fraction of the remaining tangential speed is added along the normal, pointing away.
///
/// Without it, rounding leaves `velocity · normal` at about ±1e-7 of the speed, and half
/// the time the next sweep sees a new approach at toi 0 against the same surface, which
/// would spend the bounce budget on nothing. 1e-5 is 100 times that noise and changes the
/// kinetic energy by 1e-10 relative.
pub const SEPARATION_SPEED_REL: f32 = 1e-5;

/// Dimensionless. A contact on a chain's vertex whose centre lies on the previous edge's
/// face side by more than this fraction of the query's coordinate scale is a ghost: that
/// face, not the vertex, is the chain's closest point there, and holds the ball.
///
/// 8 ulps of the scale: the rounding of the f32 contact centre. A contact within it of the
/// boundary keeps the vertex, whose normal there differs from the face's by at most this
/// over the radius.
pub const CHAIN_VERTEX_SLOP_REL: f32 = 8.0 * f32::EPSILON;

/// Dimensionless. A ball of the event machinery beside another ball that grazes the
/// inside of an arc goes along chords of the circle its centre rides on whose sagitta is
/// this fraction of the ball's radius (see the crate's `ride/chord.rs`; any other ball
/// rides exactly): it keeps within the touch slop ([`TOUCH_SLOP_REL`]) of the exact
/// circle.
pub const ARC_RIDE_SAG_REL: f32 = 1e-4;

/// Relative to `|start| + 2π`. A full ring written the natural way, `end = start + 2π`,
/// has in f32 a span a few ulps above 2π for about a quarter of start angles (`start +
/// 2π` is rounded, then the subtraction): a span up to this much above 2π is still a full
/// turn. Two machine epsilons cover both roundings; a span as much as 1e-6 of a turn
/// above 2π is refused all the same.
pub const FULL_TURN_SLACK_REL: f32 = 2.0 * f32::EPSILON;

/// Radians. The most half a riding chord may turn, so a ball riding a tight arc still goes
/// round in small steps (0.05 rad: 63 chords a turn at most).
pub const MAX_RIDE_HALF_ANGLE: f32 = 0.05;

// --- Rides (lasting contacts on circles) --------------------------------------------------

/// Radians. The local error allowed in each step of a ride's integration (see the crate's
/// `ride/motion.rs`), in its angle, and in its rate times the ride's own time scale
/// (`|ω| + √(g/L)`). 1e-12 rad is 1e-5 of an f32 ulp of the angle of a ball a whole turn
/// round: the ride adds no error of its own that the ball's f32 state could show.
pub const RIDE_TOLERANCE: f64 = 1e-12;

/// Dimensionless. A ride's step turns at most about this many radians (its length is at
/// most this over the ride's time scale), so that no event (the press vanishing, a turning
/// point) comes and goes within one step unseen: a step's end is where events are looked
/// for.
pub const MAX_RIDE_STEP_ANGLE: f64 = 0.05;

/// Dimensionless, relative to the coordinates' scale. A ball whose centre's foot on a
/// segment lies within this of the segment's end, heading past it, is at the end: it
/// rides the end's round cap. A slide that ran off a face's end leaves the centre there
/// with its foot a hair inside the face, by the f32 rounding of the centre; taken for the
/// face, it slid there again at once, leg after leg of no length, to the bounce cap, step
/// after step (a ball sliding down Starfall's right outlane guide at 1 kHz). 8 ulps of
/// the scale, as [`CHAIN_VERTEX_SLOP_REL`].
pub const END_FOOT_SLOP_REL: f32 = 8.0 * f32::EPSILON;

/// Dimensionless, relative to the ball's kinetic energy. Where a ride leaves the ball at
/// a step's end, its centre is rounded to f32, and gravity's work over that move is put
/// into the speed, so that the energy is kept (`ride/place.rs`). The work of the
/// move along the circle is put in only while it changes the squared speed by at most
/// this much of it. Near a turning point, where the ball is slow, a rounding move of an
/// ulp along the circle put into the speed moves the ball along its swing by much more
/// than the move: a bowl's pass times jumped at a turn by up to 1e-4 of a period, and
/// its 10th pass at 1 kHz came 1.8e-4 of a period early or late. Left out, the energy
/// changes by gravity's work over an ulp, a few in a swing. 1e-4 keeps the bowl's passes
/// within 2.6e-5 of a period at the 10th and 6.6e-4 at the 100th at 30 to 1,000 Hz. The
/// window is narrow, and measured: 1e-5 (energy left out more often) broke the bowl's
/// 100th pass at 120 Hz, 1e-3 moved the pinball's ball off its inlane post by 4.8e-4 rad
/// at 1 kHz (the table's coordinates are 24 times coarser against its 13.5 mm circle).
pub const RIDE_ROUNDING_WORK_MAX_REL: f64 = 1e-4;

/// Cap. A run of a ride takes at most this many integration steps (accepted or not); a
/// ride capped waits where it is for the rest of the sweep's step, counted as a capped
/// sweep ([`SweepOutcome::capped`](crate::SweepOutcome::capped)). A ride at 1,000 rad/s
/// for a step of 1/30 s takes about 700.
pub const MAX_RIDE_STEPS: u32 = 100_000;

/// Cap. A lone sweep rides in at most this many runs in one step (each to a turning
/// point, a contact, the part's end, where the press vanishes, or the step's end). A turn
/// is no contact, so the bounce cap does not bound them: a ball swings to a turn twice a
/// period (a bowl of L = 0.5 under g = 10: 0.7 s), and friction brings it to rest in a
/// finite number. Past this the sweep is capped: the ball waits where its last run ended
/// for the rest of the step, counted in [`SweepOutcome::capped`](crate::SweepOutcome::capped)
/// and its lost time. Against a rounding that would turn a ball at rest back and forth
/// for ever (a hold rule at 0.9 of μ, planted, looped so). 1,024, as
/// [`MAX_WEDGE_BOUNCES`], bounds one ball's work in one step to a thousand runs.
pub const MAX_RIDE_RUNS: u32 = 1024;

/// Cap. The halvings of a ride's step that crosses an event, to find it: 64 leave the
/// bracket at the f64 resolution of the step's length (the loop also stops there).
pub const MAX_RIDE_EVENT_HALVINGS: u32 = 64;

/// Dimensionless, relative to the ball's radius. A lone riding ball looks for the next
/// thing it meets along chords of its circle, as a ball this much larger (so that the
/// chord's sagitta, and the f32 rounding of its ends, are covered): it finds a wall early
/// by at most this much of its radius, never late. The event machinery's ride goes along
/// chords of this sagitta (`multiball/round.rs`): between their ends, exact on the
/// circle, a rider is off it by at most this much of its radius.
pub const RIDE_SEARCH_SAG_REL: f32 = 1e-5;

// --- Curved sweeps (gravity) ---------------------------------------------------------------

/// Dimensionless. A curved sweep's root search stops when its bracket is this fraction of
/// the leg (however short the piece it closes in on), and reports the bracket's outer end:
/// the contact is early by at most this much of the leg, never late.
///
/// 1e-12 of a leg is ten thousand times finer than an f32 fraction can show (about 6e-8
/// near 1), so the f32 time is the rounded exact one, and still a thousand times coarser
/// than f64's resolution, so the search never chases rounding.
pub const ROOT_BRACKET_REL: f64 = 1e-12;

/// Dimensionless. A curve's search for a round part (an end point, a pillar) runs only in
/// the window where its chord is within the reach plus the curve's sag and not yet within
/// the reach minus it; the window's two radii are widened and narrowed by this fraction.
///
/// The window's ends are a quadratic's roots in f64, good to about 1e-15 of the radius
/// away from a graze and to about 1e-8 at one: 1e-6 is a hundred times that, and widens
/// the search by a millionth of the radius.
pub const CHORD_WINDOW_MARGIN_REL: f64 = 1e-6;

/// Hard cap on the entries a curved leg makes into one circle of an arc's surface (its
/// outer or inner circle) that the arc's query tries, each checked against the arc's
/// angle range. The distance from a parabola to a point is a quartic in time: it falls
/// through a given value at most twice.
pub const MAX_ARC_ENTRIES: u32 = 2;

/// Hard cap on the steps of one root search of a curved sweep (one per root, for each
/// degree of the cascade: a quartic's first root takes up to four searches). Every fourth
/// step halves the bracket whatever the secant says, so 192 steps shrink it below 2⁻⁴⁸ of
/// the piece, under [`ROOT_BRACKET_REL`]: the cap is a guard, never the usual stop. A
/// plain contact takes 5 to 15 steps; the count is reported with the root.
pub const MAX_ROOT_ITERATIONS: u32 = 192;

// --- The moving segment sweep -----------------------------------------------------------

/// Dimensionless. The contact tolerance of [`sweep_circle_moving_segment`](crate::sweep_circle_moving_segment), as a fraction of
/// the query's scale (the largest coordinate, motion, radius or lever sweep involved).
///
/// The distance function is evaluated in f32, whose noise is about 1e-7 of that scale, so
/// 1e-6 is ten times the noise: small enough that a contact is found within a micrometre
/// on a metre-sized table, large enough to never chase rounding.
pub const MOVING_SEGMENT_TOLERANCE_REL: f32 = 1e-6;

/// Tolerances ([`MOVING_SEGMENT_TOLERANCE_REL`] of the query's scale). The moving segment
/// search accepts a time whose gap is within one tolerance above the level it looks for,
/// which is itself one tolerance; so a leg that starts with a gap of up to this many
/// tolerances is in touch from the start (a ball that just bounced off the segment).
pub const MOVING_SEGMENT_ACCEPT_BAND: f32 = 2.0;

/// Hard cap on the root search of [`sweep_circle_moving_segment`](crate::sweep_circle_moving_segment). Each iteration is one or
/// two distance evaluations. A plain contact needs about 10 to 40; the cap is reached only
/// by near-grazing paths, and then the earliest uncertified time is reported, so the cap
/// can make a contact early, never late.
pub const MAX_MOVING_SEGMENT_ITERATIONS: u32 = 256;

/// Hard cap on the times [`sweep_circle_moving_segment`](crate::sweep_circle_moving_segment) goes on searching past a time
/// where the shapes touch without closing in: a graze, or a ball that starts the leg a
/// hair outside the segment (right after bouncing off it) while still separating. Each
/// restart searches on from that time, with a level set afresh from the gap `g` there
/// (not lowered step by step from the last level): in touch (`g` within
/// [`MOVING_SEGMENT_ACCEPT_BAND`] tolerances) it looks for a new press, the gap coming
/// down to `min(g, 0)` minus two tolerances, and stops within one tolerance above that
/// level, so on a press one to two tolerances deeper than `min(g, 0)`; otherwise (a search
/// that stopped short at f32 time resolution) it looks for the ordinary contact level
/// again. When the search after the last allowed restart also ends on a time that does
/// not close in, the query reports no contact, so a press later in that step is missed.
pub const MAX_MOVING_SEGMENT_RESTARTS: u32 = 4;

// --- Bounces -------------------------------------------------------------------------------

/// Default cap on solid contacts in one [`sweep_bounces`](crate::sweep_bounces) call.
pub const DEFAULT_MAX_BOUNCES: u32 = 16;

/// Solid contacts. The most one circle may resolve in one step when its contacts are
/// those of a narrow corner (two walls meeting at an angle α, where an elastic ball
/// bounces at most ⌈π/α⌉ times before it comes out): past [`DEFAULT_MAX_BOUNCES`] (or the
/// configured cap), the cap is raised by that count, up to this. So is it for an event
/// ball going along an arc's chords beside another ball, by two contacts for each chord
/// the rest of the step holds (see [`ARC_RIDE_SAG_REL`]). 1,024 covers a V of 0.18° and
/// bounds the work of one ball in one step to a thousand sweeps.
pub const MAX_WEDGE_BOUNCES: u32 = 1024;

/// Cap on sensor contacts reported for one straight leg of the path (between two solid
/// contacts). Past it the earliest ones are kept, so the count is bounded and the work
/// stays on the stack.
pub const MAX_SENSOR_HITS_PER_LEG: usize = 8;

// --- Many balls ----------------------------------------------------------------------------

/// Default event budget per ball per step; the whole step may process
/// `balls · DEFAULT_EVENTS_PER_BALL + MIN_EVENT_BUDGET` events before it stops.
pub const DEFAULT_EVENTS_PER_BALL: u32 = 64;

/// Events always allowed per step, however few balls there are.
pub const MIN_EVENT_BUDGET: u32 = 1024;

/// Dimensionless. Ball–ball events less than this fraction of the step apart are
/// simultaneous and resolved together, order-independently, so a symmetric break stays
/// symmetric. 1e-6 of a step is far below any visible motion and far above the rounding
/// (about 1e-7) that makes mirrored contacts differ in their last bit.
pub const SIMULTANEOUS_TIME_REL: f32 = 1e-6;

/// Dimensionless. A speed of a simultaneous contact (a corner, a hinge on its stop) within
/// this fraction of the contact's largest speed is zero: touching, neither approaching nor
/// leaving; and a pivot below this fraction of the largest entry of its matrix is zero
/// (two rows that say the same thing). 1e-9 is ten million times f64 rounding, so rounding
/// never decides, and a thousand times below the f32 rounding of the velocities stored.
pub const SIMULTANEOUS_SOLVE_TOLERANCE_REL: f64 = 1e-9;

/// Dimensionless. A ball between two surfaces leaves them as one contact unless that would
/// throw it faster than a single elastic bounce off either would (a wedge closing at a
/// shallow angle); this much faster still counts as no faster: 1e-5 is a hundred times
/// the f32 rounding of the speeds compared, and far below any speed a player notices.
pub const SQUEEZE_SPEED_SLACK_REL: f32 = 1e-5;

/// Rounds. Cap on the rounds of one simultaneous contact with several surfaces (see
/// `instant.rs`). A round is one reflection in no time; a ball that meets one wall of
/// a V of opening `α` while touching the other takes at most `⌈π/α⌉ + 1` of them (the
/// bound of [`MAX_WEDGE_BOUNCES`]), so 1024 covers openings down to 0.18°. At the cap a
/// last round stops every approach with no bounce: energy is lost, never made.
pub const MAX_SIMULTANEOUS_ROUNDS: u32 = 1024;

/// Rows. The most rows (ball–ball, ball–surface, ball–hinged part, hinge stop) of one
/// cluster of contacts solved at one instant (`instant.rs`'s `Cluster`), whose buffers are
/// fixed arrays so that a solve never allocates. A rack of 15 touching balls has 30
/// ball–ball rows, and the walls and parts around it fit in the rest; the cluster's matrix
/// is `64² = 4096` f64, 32 KB, which its caller keeps boxed in its scratch. A larger
/// cluster is refused row by row, and its caller solves it in parts.
pub const MAX_INSTANT_ROWS: usize = 64;

/// Balls. The most balls of one cluster of contacts solved at one instant (`instant.rs`'s
/// `Cluster`): balls touching each other at that instant, every one of them moving, two
/// rows each on average within [`MAX_INSTANT_ROWS`]. Beyond it the caller solves the
/// cluster in parts.
pub const MAX_INSTANT_BALLS: usize = 32;

/// Hinged bodies. The most hinged bodies (flippers, gates, spinners) one cluster of
/// contacts solved at one instant involves (`instant.rs`'s `Cluster`): two flippers and two
/// more bodies the cluster reaches. Beyond it the caller solves the cluster in parts.
pub const MAX_INSTANT_HINGES: usize = 4;

/// Passes. Cap on the projected Jacobi passes of the contact solve over one batch of
/// simultaneous ball–ball contacts (a single pair needs none). Two contacts on one ball
/// converge to f64 rounding in about 35 passes, a rack of touching balls in about 100;
/// this bounds a nearly degenerate batch, which then keeps its energy only to the
/// solve's accuracy.
pub const MAX_SIMULTANEOUS_PASSES: u32 = 256;

/// Dimensionless. The contact solve of a batch of simultaneous ball–ball contacts stops
/// when no impulse changed by more than this fraction of the largest one in a pass: f64
/// rounding, a few ulps, so that the energy is kept to rounding with `e = 1`.
pub const CONTACT_SOLVE_TOLERANCE: f64 = 1e-13;

/// Dimensionless. The pair forecast of `step_balls` skips the exact sweep of two balls
/// whose closest approach within the step, computed in f32, exceeds their contact distance
/// by this fraction: 1e-3 is ten thousand times the f32 rounding of that computation, so
/// no contact is ever skipped.
pub const CLEARLY_APART_MARGIN: f32 = 1e-3;

/// Dimensionless: a cosine. Two balls that touch (or nearly) while moving apart, the
/// cosine of the angle between their offset and their relative motion above this, surely
/// never meet: the exact sweep, whose normal differs from the offset's direction by f32
/// rounding (about 1e-7), would find them receding too. Every ball–ball contact leaves
/// such a pair behind, seen again by both balls' next forecasts: they skip the sweep.
pub const CLEARLY_SEPARATING_COS: f32 = 1e-4;

/// Dimensionless (a fraction of the step). The pair forecast of `step_balls` looks for
/// other balls only up to the earliest event found so far, plus the simultaneity window
/// (a ball met at nearly the same instant still counts, see [`SIMULTANEOUS_TIME_REL`]),
/// plus this much: 1e-3 of a step is ten thousand times the f32 rounding of the event
/// times compared, so no contact that could change the forecast is ever skipped.
pub const PAIR_HORIZON_SLACK_REL: f32 = 1e-3;

/// Dimensionless. When at least this fraction of the balls went through the event
/// machinery in a step, the next step sends every ball there at once, without first
/// sweeping each on its own (a dense gas or a pile, where nearly every ball meets another:
/// the sweeps on their own and the check would be wasted, about a fifth of the step). It
/// stays so while [`CROWDED_STAYS_FRACTION`] of the balls crowd each other, and takes
/// [`MIN_CROWDED_BALLS`] balls at least. The results
/// are exact either way, but for rides of round parts, which the machinery follows chord
/// by chord. With at least this fraction in the machinery, the step's first plans also find
/// their ball contacts pair by pair over the whole grid rather than by one query per
/// ball.
pub const CROWDED_FRACTION: f32 = 0.5;

/// Dimensionless. A crowded step (see [`CROWDED_FRACTION`]) makes the next one crowded
/// too when at least this fraction of the balls found another ball ahead in their first
/// forecasts. Counted by the balls it sent to the event machinery, all of them, it would
/// stay crowded for ever: one pinball by a flipper, and every later step followed rides
/// chord by chord. The 2,000-ball pit under gravity has 21–25% such balls in a crowded
/// step (and 56–61% of its balls in the machinery in a step that sweeps each first): at
/// a tenth, it stays crowded as it did, while balls that meet nothing but walls and
/// moving parts let go at once.
pub const CROWDED_STAYS_FRACTION: f32 = 0.1;

/// Balls. A step of fewer balls is never crowded (see [`CROWDED_FRACTION`]): the lone
/// sweeps a crowded step skips cost little then, and a ball steps the same way, bit for
/// bit, whether it is alone or among a few (a prediction, which steps one ball, takes the
/// path the step took, where a crowded step and one that swept the ball first would
/// differ in the last bit of a contact).
pub const MIN_CROWDED_BALLS: usize = 64;

/// Items. [`Threads`](crate::Threads) (and the plugin's task-pool executor) give a thread
/// no fewer items than this: starting a thread costs about as much as sweeping a hundred
/// balls on their own.
pub const MIN_ITEMS_PER_THREAD: usize = 128;

/// Balls. The lone sweeps, and the lone balls' ends, are cut into runs of about this many
/// (`multiball/lone_runs.rs`), each a task; a thread takes a block of runs in a row. Small
/// enough that the blocks of two to eight threads come out nearly even (ten thousand balls
/// make 40 runs), large enough that a run's bookkeeping is nothing beside its sweeps.
pub const LONE_BALLS_PER_TASK: usize = 256;

/// Tasks. The most runs the balls are cut into (the runs live on the stack); with more
/// balls than `LONE_BALLS_PER_TASK` times this, each run is longer.
pub const MAX_LONE_RUNS: usize = 128;

/// Dimensionless. The step's resting solve settles a ball (at rest on what it touches, the
/// rest of the step's gravity taken at once) only where it pressed on it: took more normal
/// speed from it than this fraction of its speed plus a step's gravity. A contact normal
/// from f32 centres tilts by up to about 1e-5 (a few ulps of the coordinates over the
/// radius), and by that tilt alone a ball running down along a wall gravity does not press
/// it into would be pressed on, and would fall the chord of its curve. Ten times that tilt.
pub const PRESS_SLACK_REL: f32 = 1e-4;

/// F32 spacings of the coordinates (ulps of the larger). A ball that starts to slide sunk
/// into its face by more than this many is put back on it (`bounce/slide.rs`'s `seat`,
/// in either engine); by less, it is left. A lift below an ulp rounds to a whole ulp
/// along one axis alone, and so moves the ball along its face as well: lifted at every
/// step, a ball on a steep slope at coordinates near 50 crept up it, and gained 2.4e-5 of
/// its drop's energy in 1,190 steps at 1 kHz, twice what lifts of two ulps or more leave
/// (1.0e-5).
pub const SLIDE_SEAT_ULPS: f32 = 2.0;

/// Dimensionless (the sine of an angle). Two segments that share an end point and turn
/// from each other by less than this are one flat face at their seam: a lone ball sliding
/// off one slides on along the other at once, its speed kept, rather than meet the other's
/// end cap a hair before the seam. A slope whose points are f32 roundings of one line
/// (`top + dir·5·i`, up to 1,000 units long) turns by up to about 1e-5 at its seams; ten
/// times that. Turning the velocity through it loses at most 1e-4 of the speed's normal
/// part (none of the speed).
pub const SEAM_FLAT_SIN: f32 = 1e-4;

/// Dimensionless. Two balls whose centres are within `(1 + TOUCH_SLOP_REL)·(r₁ + r₂)` are
/// touching: they join the same simultaneous contact cluster and the resting-contact
/// solve. 1e-4 of the contact distance absorbs the rounding of positions placed at
/// contact by earlier steps (about 1e-7 relative) a thousand times over, and is far below
/// anything visible.
pub const TOUCH_SLOP_REL: f32 = 1e-4;

/// Dimensionless. Two balls already touching that close in slower than this fraction of the
/// resting speed make no event; the next step's resting-contact solve takes them. Without
/// it a settling pile turns into an endless chain of ever smaller contacts (inelastic
/// collapse). The overlap this allows is at most `0.05 · resting_speed · dt` per step, a
/// twentieth of what gravity adds to a resting contact in one step.
pub const RESTING_EVENT_FRACTION: f32 = 0.05;

/// Dimensionless, relative to the resting speed. The resting-contact solve stops once a
/// pass changes no velocity by more than this. What it leaves undone moves a pile that
/// should rest: three balls piled at rest in a bowl (`tests/piles.rs`) stay within 4.8e-7
/// of where they are for a minute at 30 Hz to 1 kHz, in up to 31 passes; at 1e-5 they
/// move 6.1e-5, at 1e-4 0.63 (and after 16 passes, the old fixed count, 0.8). A resting
/// ball's velocity rounds to about 6e-8 of the resting speed, well below it.
pub const RESTING_SOLVE_TOLERANCE_REL: f32 = 1e-6;

/// Cap. Passes of the resting-contact solve at the start of each step (sequential
/// impulses over touching pairs and walls approaching slower than the resting speed),
/// fewer once a pass changes no velocity by more than [`RESTING_SOLVE_TOLERANCE_REL`] of
/// the resting speed; the passes a step took are reported
/// ([`MultiballReport::resting_passes`](crate::MultiballReport::resting_passes)). Eight
/// times what a pile of three in a bowl takes.
pub const RESTING_ITERATIONS: u32 = 256;

/// Dimensionless. Overlap of two balls, as a fraction of their contact distance `r₁ + r₂`,
/// that the position correction leaves alone. Slow contacts skipped by
/// [`RESTING_EVENT_FRACTION`] let a pile sink in by up to `0.05 · resting_speed · dt` per
/// step; below this depth (1e-3 of the contact distance, a thousandth of a diameter)
/// nothing is visible and moving balls would only make the pile creep.
pub const ALLOWED_OVERLAP_REL: f32 = 1e-3;

/// Dimensionless. Fraction of the overlap beyond [`ALLOWED_OVERLAP_REL`] that one step's
/// position correction removes. Half keeps the correction gentle (no visible pop) while
/// the steady overlap stays within about twice the per-step creep.
pub const OVERLAP_CORRECTION_FRACTION: f32 = 0.5;

/// Passes of the position correction over the touching pairs at the start of a step.
pub const OVERLAP_CORRECTION_ITERATIONS: u32 = 16;

/// Dimensionless: a fraction of the position's coordinates. The overlap correction drops a
/// slide along a wall shorter than this: 1e-6 of the coordinates is about eight f32 ulps,
/// so such a slide is rounding, and rounded it can carry the ball a hair into the wall it
/// slides on, a little more each step (a ball in a pile, pressed against a funnel wall,
/// sank 0.01 units in 3,700 steps that way).
pub const CORRECTION_SLIDE_MIN_REL: f32 = 1e-6;

/// Slides along a wall allowed to one ball's position correction in one pass (a ball in
/// a corner slides once along each wall, then stops).
pub const MAX_CORRECTION_SLIDES: u32 = 2;

// --- Broadphases ---------------------------------------------------------------------------

/// Cells. An obstacle whose bounding box covers more cells than this is not stored in
/// cells but in the grid's large list, scanned by every query.
///
/// A 10⁶-unit wall at 32 units per cell would otherwise take 31 250 cell entries (and a
/// long diagonal one the square of that). Scanning a large obstacle costs one box test
/// per query; storing it costs one 28-byte entry per cell. 256 cells is a 16 × 16 block
/// (512 × 512 units at the default size), bigger than most queries, so past it the list
/// is the cheaper home.
pub const MAX_CELLS_PER_OBSTACLE: u64 = 256;

/// Cells. The dense rectangle never holds more cells than this; an obstacle that would
/// need a larger one goes to the large list.
///
/// 2²⁰ cells is 1024 × 1024, a square of 32 768 units at the default cell size, and
/// 24 MiB of empty cell lists on a 64-bit target. It bounds both memory and the cost of a
/// query over a huge box, which is clamped to the rectangle.
pub const MAX_GRID_CELLS: u64 = 1 << 20;

/// Cells. The most cells per axis of the balls' swept-box grid in
/// [`step_balls`](crate::step_balls), so a huge scene or a stray ball cannot allocate
/// without bound; the cells grow instead.
pub const MAX_BALL_GRID_CELLS_PER_AXIS: usize = 512;

// --- Hinged bodies --------------------------------------------------------------------------

/// Radians. A hinge within this angle of a limit touches it: a ball pushing it further in
/// meets an immovable body (the stop holds it), and its drive does not turn it further in.
///
/// 1e-4 rad is 7 µm at the tip of a 70 mm flipper, far below anything a player sees, and
/// a thousand times the f32 rounding of an angle near π.
pub const HINGE_LIMIT_SLOP: f32 = 1e-4;

/// Dimensionless. [`HingeDrive::resting_speed`](crate::HingeDrive::resting_speed) is this
/// many times what the drive adds to a body's angular velocity in one step. A body that
/// its spring holds against a stop arrives there, step after step, slower than one step's
/// push (`Δ`): bounced with restitution `e` it would leave at `e·(Δ − w)` and come back,
/// settling on a cycle at `w = e·Δ/(1 + e)` that never ends. Hits that slow are resting
/// contacts; 1.5 leaves a margin over the rounding of `Δ`, and a body really flung at the
/// stop arrives many times faster.
pub const HINGE_RESTING_PUSHES: f32 = 1.5;

/// Hard cap on the limit hits of one hinged body in one step. A body bouncing between
/// its two limits with restitution near 1 could otherwise hit them without end; at the
/// cap it stops at the limit it reached. Real parts hit a limit once or twice per step.
/// The count is reported in [`MultiballReport::hinge_limit_hits`](crate::MultiballReport::hinge_limit_hits).
pub const MAX_HINGE_LIMIT_HITS: u32 = 16;

// --- The audit ---------------------------------------------------------------------------

/// Dimensionless. A circle may sit inside a solid surface by this fraction of its radius
/// before the audit calls it a fault.
///
/// A contact leaves the centre at distance `r` from the surface up to the rounding of f32
/// positions (about 1e-7 of the coordinates, 6e-5 units at coordinates near 1,000: the
/// ball pit's closest centre was 3.99994 for radius 4), and the ball–ball position
/// correction leaves overlaps below [`ALLOWED_OVERLAP_REL`]
/// (a thousandth of the contact distance) alone. A thousandth of the radius is above both
/// and far below anything visible; a ball that tunnels sits a whole radius deep or more.
pub const PENETRATION_SLOP_REL: f32 = 1e-3;
