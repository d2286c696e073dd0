//! Every colour and size the view draws with, in one place. Sizes are table millimetres
//! unless named otherwise; depths (`*_Z`) order the drawing (higher is nearer).

use bevy::prelude::*;

// The cabinet and the playfield.
pub const BACKGROUND: Color = Color::srgb(0.03, 0.035, 0.06);
pub const PLAYFIELD: Color = Color::srgb(0.07, 0.09, 0.16);
/// Empty space round the table and the display inside the viewport.
pub const MARGIN_MM: f32 = 30.0;

// Walls: a bright core over a soft glow.
pub const WALL_CORE: Color = Color::srgb(0.55, 0.8, 1.0);
pub const WALL_GLOW: Color = Color::srgba(0.3, 0.55, 1.0, 0.25);
pub const STROKE_MM: f32 = 3.0;
pub const GLOW_MM: f32 = 10.0;
pub const DRAIN: Color = Color::srgba(1.0, 0.2, 0.2, 0.25);
pub const DRAIN_MM: f32 = 2.0;
pub const GATE: Color = Color::srgb(0.3, 1.0, 0.5);
pub const SPINNER: Color = Color::srgb(0.95, 0.8, 0.3);
pub const SPINNER_MM: f32 = 4.5;

// Slingshots and pop bumpers.
pub const SLING_FILL: Color = Color::srgb(0.35, 0.12, 0.2);
pub const RUBBER: Color = Color::srgb(0.95, 0.95, 0.95);
pub const RUBBER_MM: f32 = 5.0;
pub const SLING_BAND: Color = Color::srgb(1.0, 0.35, 0.5);
pub const SLING_BAND_LIT: Color = Color::srgb(1.0, 0.95, 0.6);
pub const SLING_BAND_MM: f32 = 7.0;
pub const BUMPER_HALO: Color = Color::srgba(1.0, 0.3, 0.1, 0.15);
pub const BUMPER_HALO_LIT: Color = Color::srgba(1.0, 0.85, 0.3, 0.9);
/// How far the halo reaches beyond the bumper's skirt.
pub const BUMPER_HALO_MM: f32 = 12.0;
pub const BUMPER_BODY: Color = Color::srgb(0.85, 0.2, 0.15);
pub const BUMPER_CAP: Color = Color::srgb(1.0, 0.8, 0.35);
/// The cap's radius as a fraction of the bumper's.
pub const BUMPER_CAP_FRACTION: f32 = 0.62;

// Lanes and drop targets.
pub const LANE_INSERT: Color = Color::srgb(0.2, 0.25, 0.35);
pub const LIT_INSERT: Color = Color::srgb(0.3, 1.0, 0.9);
pub const LANE_INSERT_HALF_MM: f32 = 7.0;
pub const LANE_INSERT_MM: f32 = 6.0;
pub const TARGET_UP: Color = Color::srgb(1.0, 0.6, 0.1);
pub const TARGET_DOWN: Color = Color::srgb(0.25, 0.2, 0.15);
/// A target as the attract mode lights it.
pub const TARGET_LIT: Color = Color::srgb(1.0, 0.95, 0.6);
pub const TARGET_MM: f32 = 8.0;
/// Gap between neighbouring targets of a bank.
pub const TARGET_GAP_MM: f32 = 2.0;

// Flippers: a white plastic bat in a red rubber ring, a screw at the pivot.
pub const FLIPPER_RUBBER: Color = Color::srgb(0.95, 0.3, 0.2);
pub const FLIPPER_BAT: Color = Color::srgb(0.95, 0.95, 1.0);
/// The rubber ring's width.
pub const FLIPPER_RUBBER_MM: f32 = 1.6;
pub const FLIPPER_PIVOT: Color = Color::srgb(0.9, 0.9, 0.95);
pub const FLIPPER_SCREW: Color = Color::srgb(0.55, 0.57, 0.62);
/// The screw's radius as a fraction of the base circle's.
pub const FLIPPER_SCREW_FRACTION: f32 = 0.35;

// The plunger.
pub const PLUNGER: Color = Color::srgb(0.75, 0.75, 0.8);
pub const PLUNGER_WIDTH_MM: f32 = 16.0;
pub const PLUNGER_ROD_MM: f32 = 30.0;
/// How far a full pull draws the rod back.
pub const PLUNGER_TRAVEL_MM: f32 = 12.0;

// Balls: steel with a highlight, a shadow toward the bottom right (lit from the top
// left) and a fading trail when fast.
pub const BALL_STEEL: Color = Color::srgb(0.78, 0.8, 0.86);
pub const BALL_SHINE: Color = Color::srgba(1.0, 1.0, 1.0, 0.9);
pub const BALL_SHINE_FRACTION: f32 = 0.32;
pub const BALL_SHINE_OFFSET: Vec2 = Vec2::new(-4.0, 4.5);
pub const BALL_SHADOW: Color = Color::srgba(0.0, 0.0, 0.02, 0.7);
pub const BALL_SHADOW_OFFSET: Vec2 = Vec2::new(5.0, -6.0);
pub const BALL_TRAIL: Color = Color::srgba(0.7, 0.85, 1.0, 0.35);

// Score pop-ups.
pub const POPUP: Color = Color::srgb(1.0, 0.85, 0.3);
/// Height of the pop-up text (a `Text2d` font size is in world units: mm here).
pub const POPUP_TEXT_MM: f32 = 24.0;

// The dot-matrix display: amber dots, dim when off.
pub const DMD_ON: Color = Color::srgb(1.0, 0.55, 0.08);
pub const DMD_HALF: Color = Color::srgb(0.6, 0.3, 0.04);
pub const DMD_OFF: Color = Color::srgb(0.13, 0.06, 0.02);
pub const DMD_BEZEL: Color = Color::srgb(0.01, 0.01, 0.012);
pub const DMD_BEZEL_MM: f32 = 10.0;
/// Centre to centre distance of the dots.
pub const DMD_PITCH_MM: f32 = 5.0;
/// A dot's diameter as a fraction of the pitch.
pub const DMD_DOT_FRACTION: f32 = 0.8;
/// Gap between the display and the table.
pub const DMD_GAP_MM: f32 = 50.0;

// Depths.
pub const PLAYFIELD_Z: f32 = -10.0;
/// The ramp's wires: above the balls on the playfield (`ramp::PLAYFIELD_BALL_Z`, 2) and
/// below the balls on the ramp (`ramp::RAMP_BALL_Z`, 4).
pub const RAMP_Z: f32 = 3.0;
pub const SLING_FILL_Z: f32 = -4.0;
pub const DRAIN_Z: f32 = -3.0;
pub const LANE_Z: f32 = -2.5;
pub const GLOW_Z: f32 = -2.0;
pub const PLUNGER_Z: f32 = -1.5;
pub const PART_Z: f32 = -1.0;
pub const CAP_Z: f32 = -0.5;
/// The stripe on a flipper and the highlight on a ball, over their body.
pub const DETAIL_Z: f32 = 0.5;
/// A ball's shadow, below the ball (which is at z 2, flippers at 1): on the playfield.
pub const SHADOW_LOCAL_Z: f32 = -1.5;
pub const TRAIL_LOCAL_Z: f32 = -0.2;
pub const POPUP_Z: f32 = 5.0;
pub const DMD_Z: f32 = 0.0;
pub const CAMERA_Z: f32 = 100.0;

// The richer table's parts.
pub const RAMP_WIRE: Color = Color::srgb(0.8, 0.84, 0.9);
pub const RAMP_WIRE_MM: f32 = 3.0;
pub const LIT_ARROW: Color = Color::srgb(1.0, 0.85, 0.2);
/// An arrow insert: how far behind its shot line it starts, its length and half width, mm.
pub const ARROW_BACK_MM: f32 = 40.0;
pub const ARROW_LENGTH_MM: f32 = 26.0;
pub const ARROW_HALF_WIDTH_MM: f32 = 10.0;
pub const STANDUP: Color = Color::srgb(0.3, 0.6, 1.0);
pub const SAUCER_CUP: Color = Color::srgb(0.02, 0.02, 0.03);
pub const SAUCER_CUP_MM: f32 = 30.0;
pub const SAUCER_RING_MM: f32 = 19.0;
pub const KICKBACK_MM: f32 = 6.0;
