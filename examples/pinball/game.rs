//! The table's physics entities and the rules: flippers, plunger, kickers, scoring,
//! drains, multiball, autoplay and run statistics. Everything here runs the same with a
//! window or headless.

use crate::table::{Side, TableDef, Tuning, inside, v};
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use bevy_circle_ccd::{Kinematic, ccd_core};
use std::collections::VecDeque;

/// Flipper speed at the very start of a stroke, as a fraction of its top speed (a solenoid
/// starts at once; without a floor the profile below would never leave rest).
const FLIPPER_START_FRACTION: f32 = 0.05;
/// Exponent of the flipper's speed profile ω(θ) = ω_top·(θ/stroke)^E. With E = k/(k+1) the
/// angle grows as t^(k+1) and the stroke takes (k+1)·stroke/ω_top; k = 2.5 gives
/// 3.5 · 0.873 rad / 75 rad/s = 40.7 ms for the pure law, and the start floor above cuts the
/// slow first 1.5 % of the stroke (12.3 ms of it) to 3.5 ms: about 32 ms in all, ending at
/// 75 rad/s, as a real flipper (about 51° in about 34 ms, ending near 75 rad/s).
const FLIPPER_PROFILE_EXPONENT: f32 = 2.5 / 3.5;
/// A slingshot fires only when struck at least this fast, mm/s (a ball resting against
/// its rubber must not be machine-gunned).
const SLING_MIN_APPROACH: f32 = 150.0;
/// A pop bumper fires only when struck at least this fast, mm/s: about 0.1 m/s on real
/// machines, so a ball that merely rolls against its skirt is not kicked.
const BUMPER_MIN_APPROACH: f32 = 100.0;
/// Seconds between the balls a multiball (or the B key) launches.
const LAUNCH_INTERVAL: f32 = 0.8;
/// Auto-launch speed of multiball balls, mm/s.
const AUTO_LAUNCH_SPEED: f32 = 2600.0;
/// A ball that moves less than this (mm) for [`STUCK_SECONDS`] gets a ball-search nudge.
const STUCK_DISTANCE: f32 = 2.0;
const STUCK_SECONDS: f32 = 10.0;
/// Seconds of ball-speed history kept for the panel's plot.
pub const SPEED_HISTORY_SECONDS: f32 = 6.0;

/// The table in use.
#[derive(Resource, Clone)]
pub struct Table {
    pub def: TableDef,
    pub ring: Vec<Vec2>,
}

/// Live tuning, edited by the panel.
#[derive(Resource, Clone, PartialEq)]
pub struct Tune(pub Tuning);

/// What the player (or the autoplayer) is holding.
#[derive(Resource, Default, Clone, Copy)]
pub struct Controls {
    pub left: bool,
    pub right: bool,
    pub plunger: bool,
}

/// Requests from keys and buttons, taken by the next fixed step.
#[derive(Resource, Default)]
pub struct Requests {
    pub new_game: bool,
    pub add_ball: bool,
}

#[derive(Resource)]
pub struct Autoplay {
    pub on: bool,
    hold: [f32; 2],
    cooldown: [f32; 2],
    rest_time: f32,
    pull_target: f32,
    game_over_wait: f32,
}

impl Autoplay {
    pub fn new(on: bool) -> Self {
        Self {
            on,
            hold: [0.0; 2],
            cooldown: [0.0; 2],
            rest_time: 0.0,
            pull_target: 0.0,
            game_over_wait: 0.0,
        }
    }
}

#[derive(Resource, Default)]
pub struct Game {
    pub score: u64,
    pub high_score: u64,
    pub ball_number: u32,
    pub game_over: bool,
    pub rollovers_lit: Vec<bool>,
    pub targets_down: Vec<bool>,
    pub launch_queue: u32,
    launch_timer: f32,
    reset_targets: bool,
    pub message: String,
    pub games: u32,
}

/// Counts over the whole run (the headless summary) and the live panel figures.
#[derive(Resource, Default)]
pub struct RunStats {
    pub steps: u64,
    pub simulated: f64,
    pub served: u32,
    pub drained: u32,
    pub bounces: u64,
    pub max_bounces_step: u32,
    pub max_bounces_circle: u32,
    pub max_speed: f32,
    pub micros_sum: f64,
    pub escapes: u32,
    pub nan: u32,
    pub ball_searches: u32,
    pub multiballs: u32,
    /// (simulated time, fastest ball speed), for the plot.
    pub speed_history: VecDeque<(f64, f32)>,
    /// Hits per second over the last second.
    pub hits_per_second: f32,
    hit_window: VecDeque<(f64, u32, u32)>,
    /// The most bounces in one step over the last second.
    pub recent_max_bounces: u32,
    /// Mean bounces per step over the last second.
    pub bounces_per_step_avg: f32,
    pub fastest_now: f32,
}

impl RunStats {
    pub fn mean_micros(&self) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.micros_sum / self.steps as f64
        }
    }
}

#[derive(Component)]
pub struct Ball {
    /// When it last moved (None until the first step sees it).
    still_since: Option<f32>,
    still_at: Vec2,
}

#[derive(Component)]
pub struct Flipper {
    pub side: Side,
    pub pivot: Vec2,
    pub length: f32,
    pub thickness: f32,
    pub rest: f32,
    pub stroke: f32,
    /// Current rise, radians (0 = rest).
    pub theta: f32,
    pub omega: f32,
}

impl Flipper {
    /// World angle of the flipper's blade (the direction from pivot to tip).
    pub fn angle(&self) -> f32 {
        match self.side {
            Side::Left => self.rest + self.theta,
            Side::Right => std::f32::consts::PI - (self.rest + self.theta),
        }
    }
}

/// Which flipper a kinematic blade part belongs to.
#[derive(Component)]
pub struct FlipperPart(pub Entity);

/// Something the rules react to when hit.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Part {
    Wall,
    Sling(usize),
    SlingRubber,
    Bumper(usize),
    Rollover(usize),
    Target(usize),
    Drain,
    Gate,
    Spinner(usize),
}

/// Seconds left of a light-up (visual; the rules only set it).
#[derive(Component, Default)]
pub struct Flash(pub f32);

/// Flash length, seconds.
pub const FLASH_SECONDS: f32 = 0.18;

/// The rules and the table's entities (the hinged ones in `hinged.rs`).
pub struct GamePlugin {
    pub table: TableDef,
    pub autoplay: bool,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        let def = self.table.clone();
        let ring = def.outline_points();
        app.add_plugins(crate::hinged::HingedPartsPlugin)
            .insert_resource(Tune(def.tuning.clone()))
            .insert_resource(Table { def, ring })
            .insert_resource(Autoplay::new(self.autoplay))
            .init_resource::<Controls>()
            .init_resource::<Requests>()
            .init_resource::<Game>()
            .init_resource::<RunStats>()
            .init_resource::<PlungerShown>()
            .add_systems(Startup, spawn_table)
            .add_systems(
                FixedUpdate,
                (autoplay, rules_requests, drive_flippers, plunger, apply_tuning)
                    .chain()
                    .before(CircleCcdSystems::Prepare),
            )
            .add_systems(
                FixedUpdate,
                (on_hits, serve, watch_balls, collect_stats)
                    .chain()
                    .after(CircleCcdSystems::Report),
            );
    }
}

fn material(e: f32, mu: f32) -> CcdMaterial {
    CcdMaterial::new(e, mu)
}

fn segment(a: Vec2, b: Vec2) -> (StaticSegment, Transform) {
    (StaticSegment::new(a, b), Transform::IDENTITY)
}

pub fn spawn_table(mut commands: Commands, table: Res<Table>, tune: Res<Tune>, mut game: ResMut<Game>) {
    let t = &table.def;
    let tu = &tune.0;
    let wall = material(tu.wall_restitution, tu.wall_friction);
    for piece in t.outline.iter().chain(&t.walls) {
        for (a, b) in piece.segments() {
            commands.spawn((segment(a, b), wall, Part::Wall));
        }
    }
    crate::hinged::spawn_gate(&mut commands, &t.lane_gate, t.ball_radius, wall);
    for (k, s) in t.spinners.iter().enumerate() {
        crate::hinged::spawn_spinner(&mut commands, k, s, t.ball_radius, tu.spinner_damping);
    }
    let (a, b) = t.drain;
    commands.spawn((segment(v(a), v(b)), Sensor, Part::Drain));
    for (k, s) in t.slingshots.iter().enumerate() {
        let (a, b, c) = (v(s.a), v(s.b), v(s.c));
        let rubber = material(tu.sling_restitution, tu.wall_friction);
        commands.spawn((segment(a, c), rubber, sling_kicker(tu), Part::Sling(k)));
        commands.spawn((segment(a, b), rubber, Part::SlingRubber));
        commands.spawn((segment(b, c), rubber, Part::SlingRubber));
    }
    for (k, bd) in t.bumpers.iter().enumerate() {
        commands.spawn((
            Pillar::new(bd.radius),
            material(tu.bumper_restitution, 0.0),
            bumper_kicker(tu),
            Transform::from_translation(v(bd.center).extend(0.0)),
            Part::Bumper(k),
        ));
    }
    for (k, r) in t.rollovers.iter().enumerate() {
        commands.spawn((segment(v(r.a), v(r.b)), Sensor, Part::Rollover(k)));
    }
    for (k, (a, b)) in t.targets.iter().enumerate() {
        commands.spawn((segment(v(*a), v(*b)), wall, Part::Target(k)));
    }
    for f in &t.flippers {
        let flipper = Flipper {
            side: f.side,
            pivot: v(f.pivot),
            length: f.length,
            thickness: f.thickness,
            rest: f.rest_degrees.to_radians(),
            stroke: f.stroke_degrees.to_radians(),
            theta: 0.0,
            omega: 0.0,
        };
        let pose = Transform::from_translation(flipper.pivot.extend(1.0))
            .with_rotation(Quat::from_rotation_z(flipper.angle()));
        let id = commands.spawn((pose, flipper_visual_marker())).id();
        // The blade: its top and bottom faces and its tip, in the blade's frame (x from
        // pivot to tip). The round back end is a fixed pillar at the pivot.
        let h = f.thickness * 0.5;
        let l = f.length;
        let fm = material(tu.flipper_restitution, tu.flipper_friction);
        for (a, b) in [
            (Vec2::new(0.0, h), Vec2::new(l, h)),
            (Vec2::new(l, -h), Vec2::new(0.0, -h)),
            (Vec2::new(l, h), Vec2::new(l, -h)),
        ] {
            commands.spawn((
                StaticSegment::new(a, b),
                Kinematic::FollowTransform,
                pose,
                fm,
                FlipperPart(id),
            ));
        }
        commands.spawn((
            Pillar::new(h),
            fm,
            Transform::from_translation(flipper.pivot.extend(0.0)),
            Part::Wall,
        ));
        commands.entity(id).insert(flipper);
    }
    game.rollovers_lit = vec![false; t.rollovers.len()];
    game.targets_down = vec![false; t.targets.len()];
    game.game_over = true;
    game.message = "Press N for a new game".into();
}

/// An empty marker bundle for the flipper's own entity (its look is added by the view).
fn flipper_visual_marker() -> Name {
    Name::new("flipper")
}

pub fn spawn_ball(commands: &mut Commands, table: &Table, tune: &Tuning, at: Vec2, velocity: Vec2) -> Entity {
    commands
        .spawn((
            MovingCircle::new(table.def.ball_radius, velocity),
            CcdMaterial::new(tune.ball_restitution, tune.ball_friction),
            Transform::from_translation(at.extend(2.0)),
            Ball {
                still_since: None,
                still_at: at,
            },
        ))
        .id()
}

/// The autoplayer: flips when a ball comes down over a flipper, plunges served balls and
/// starts a new game after game over.
#[allow(clippy::too_many_arguments)]
fn autoplay(
    time: Res<Time>,
    mut auto: ResMut<Autoplay>,
    mut controls: ResMut<Controls>,
    mut requests: ResMut<Requests>,
    game: Res<Game>,
    table: Res<Table>,
    balls: Query<(&Transform, &MovingCircle), With<Ball>>,
    flippers: Query<&Flipper>,
) {
    if !auto.on {
        return;
    }
    let dt = time.delta_secs();
    if game.game_over {
        auto.game_over_wait += dt;
        if auto.game_over_wait > 1.0 {
            requests.new_game = true;
            auto.game_over_wait = 0.0;
        }
        return;
    }
    for f in &flippers {
        let k = usize::from(f.side == Side::Right);
        let rest_dir = match f.side {
            Side::Left => Vec2::from_angle(f.rest),
            Side::Right => Vec2::from_angle(std::f32::consts::PI - f.rest),
        };
        let threat = balls.iter().any(|(tf, c)| {
            let p = tf.translation.truncate() - f.pivot;
            let along = p.dot(rest_dir);
            // Height above the resting blade (its left normal on the left side).
            let normal = match f.side {
                Side::Left => rest_dir.perp(),
                Side::Right => -rest_dir.perp(),
            };
            let above = p.dot(normal);
            let reach = along > 0.25 * f.length && along < f.length + c.radius;
            reach && above < c.radius + 45.0 && above > 0.0 && c.velocity.y < 120.0
        });
        auto.cooldown[k] = (auto.cooldown[k] - dt).max(0.0);
        auto.hold[k] = (auto.hold[k] - dt).max(0.0);
        if threat && auto.cooldown[k] == 0.0 && auto.hold[k] == 0.0 {
            auto.hold[k] = 0.14;
            auto.cooldown[k] = 0.30;
        }
    }
    controls.left = auto.hold[0] > 0.0;
    controls.right = auto.hold[1] > 0.0;
    // Plunger: a ball waiting in the lane is pulled back a varying amount, then released.
    let pl = &table.def.plunger;
    let waiting = balls.iter().any(|(tf, c)| {
        let p = tf.translation.truncate();
        p.x > pl.ball_at.0 - 20.0 && p.y < pl.zone_top && c.velocity.length() < 30.0
    });
    if waiting {
        auto.rest_time += dt;
        if auto.rest_time > 0.4 {
            if auto.pull_target == 0.0 {
                // 0.7–1.0 of a full pull, varying from ball to ball.
                let phase = (game.score / 10 + u64::from(game.ball_number) + 3 * u64::from(game.games)) % 7;
                auto.pull_target = pl.full_pull_seconds * (0.7 + 0.05 * phase as f32);
            }
            controls.plunger = auto.rest_time - 0.4 < auto.pull_target;
        }
    } else {
        auto.rest_time = 0.0;
        auto.pull_target = 0.0;
        controls.plunger = false;
    }
}

fn rules_requests(
    mut requests: ResMut<Requests>,
    mut game: ResMut<Game>,
    mut commands: Commands,
    balls: Query<Entity, With<Ball>>,
) {
    if requests.new_game {
        requests.new_game = false;
        for b in &balls {
            commands.entity(b).despawn();
        }
        let lit = game.rollovers_lit.len();
        let down = game.targets_down.len();
        *game = Game {
            high_score: game.high_score,
            games: game.games + 1,
            rollovers_lit: vec![false; lit],
            targets_down: vec![false; down],
            message: "Ball 1: hold Space to pull the plunger".into(),
            ..default()
        };
    }
    if requests.add_ball {
        requests.add_ball = false;
        game.launch_queue += 1;
    }
}

/// The flipper's rise after `dt` seconds: up at ω_top·(θ/stroke)^E while held, back down
/// at ω_return·((stroke − θ)/stroke)^E when released, each at least
/// [`FLIPPER_START_FRACTION`] of its top speed, clamped to [0, stroke].
pub fn flipper_step(theta: f32, stroke: f32, held: bool, tune: &Tuning, dt: f32) -> f32 {
    if held {
        let x = (theta / stroke).clamp(0.0, 1.0);
        let w = tune.flipper_top_speed * x.powf(FLIPPER_PROFILE_EXPONENT).max(FLIPPER_START_FRACTION);
        (theta + w * dt).min(stroke)
    } else {
        let x = ((stroke - theta) / stroke).clamp(0.0, 1.0);
        let w = tune.flipper_return_speed * x.powf(FLIPPER_PROFILE_EXPONENT).max(FLIPPER_START_FRACTION);
        (theta - w * dt).max(0.0)
    }
}

/// A flipper on the kinematic drive (a motorised one has a `Hinge`: `hinged.rs`).
type KinematicFlipper<'a> = (Entity, &'a mut Flipper, &'a mut Transform);

/// Turn each flipper by its speed profile and move its blade parts; the plugin sweeps the
/// balls against the motion from the previous step's pose.
fn drive_flippers(
    time: Res<Time>,
    controls: Res<Controls>,
    tune: Res<Tune>,
    mut flippers: Query<KinematicFlipper, (Without<FlipperPart>, Without<Hinge>)>,
    mut parts: Query<(&FlipperPart, &mut Transform), Without<Flipper>>,
) {
    let dt = time.delta_secs();
    for (_, mut f, mut tf) in &mut flippers {
        let held = match f.side {
            Side::Left => controls.left,
            Side::Right => controls.right,
        };
        let before = f.theta;
        f.theta = flipper_step(f.theta, f.stroke, held, &tune.0, dt);
        f.omega = (f.theta - before) / dt;
        tf.rotation = Quat::from_rotation_z(f.angle());
    }
    for (part, mut tf) in &mut parts {
        if let Ok((_, _, ftf)) = flippers.get(part.0) {
            tf.rotation = ftf.rotation;
        }
    }
}

/// The plunger: its pull grows while held; on release, balls resting in the lane leave
/// at a speed between the table's minimum and maximum.
fn plunger(
    time: Res<Time>,
    controls: Res<Controls>,
    table: Res<Table>,
    mut plunger: Local<f32>,
    mut shown: ResMut<PlungerShown>,
    mut balls: Query<(&Transform, &mut MovingCircle), With<Ball>>,
) {
    let pl = &table.def.plunger;
    if controls.plunger {
        *plunger = (*plunger + time.delta_secs() / pl.full_pull_seconds).min(1.0);
    } else if *plunger > 0.0 {
        let speed = pl.min_speed + (pl.max_speed - pl.min_speed) * *plunger;
        for (tf, mut c) in &mut balls {
            let p = tf.translation.truncate();
            if p.x > pl.ball_at.0 - 20.0 && p.y < pl.zone_top {
                c.velocity = Vec2::new(0.0, speed);
            }
        }
        *plunger = 0.0;
    }
    shown.0 = *plunger;
}

/// How far the plunger is pulled (0–1), for the view.
#[derive(Resource, Default)]
pub struct PlungerShown(pub f32);

/// A slingshot's kicking face: adds the tuned kick along the normal, at the instant of
/// impact, when struck faster than [`SLING_MIN_APPROACH`].
fn sling_kicker(t: &Tuning) -> Kicker {
    Kicker::new(SLING_MIN_APPROACH, 0.0, t.sling_kick)
}

/// A pop bumper: sends the ball away at the tuned speed or more, at the instant of
/// impact, when struck faster than [`BUMPER_MIN_APPROACH`].
fn bumper_kicker(t: &Tuning) -> Kicker {
    Kicker::new(BUMPER_MIN_APPROACH, t.bumper_kick, 0.0)
}

type MaterialParts<'a> = (&'a mut CcdMaterial, Option<&'a Part>, Has<FlipperPart>, Has<Ball>);

/// Push the panel's tuning into the materials and settings when it changes.
fn apply_tuning(
    tune: Res<Tune>,
    table: Res<Table>,
    mut settings: ResMut<CcdSettings>,
    mut materials: Query<MaterialParts>,
    mut kickers: Query<(&mut Kicker, &Part)>,
) {
    settings.gravity = Vec2::new(0.0, -table.def.gravity());
    if !tune.is_changed() {
        return;
    }
    let t = &tune.0;
    for (mut m, part, flipper, ball) in &mut materials {
        let want = if ball {
            CcdMaterial::new(t.ball_restitution, t.ball_friction)
        } else if flipper {
            CcdMaterial::new(t.flipper_restitution, t.flipper_friction)
        } else {
            match part {
                Some(Part::Bumper(_)) => CcdMaterial::new(t.bumper_restitution, 0.0),
                Some(Part::Sling(_) | Part::SlingRubber) => {
                    CcdMaterial::new(t.sling_restitution, t.wall_friction)
                }
                Some(Part::Wall | Part::Target(_) | Part::Gate) => {
                    CcdMaterial::new(t.wall_restitution, t.wall_friction)
                }
                _ => *m,
            }
        };
        if *m != want {
            *m = want;
        }
    }
    for (mut k, part) in &mut kickers {
        let want = match part {
            Part::Sling(_) => sling_kicker(t),
            Part::Bumper(_) => bumper_kicker(t),
            _ => *k,
        };
        if *k != want {
            *k = want;
        }
    }
}

fn on_hits(
    mut hits: MessageReader<CircleHit>,
    parts: Query<&Part>,
    mut game: ResMut<Game>,
    mut stats: ResMut<RunStats>,
    table: Res<Table>,
    mut commands: Commands,
    mut gone: Local<EntityHashSet>,
) {
    gone.clear();
    for hit in hits.read() {
        if gone.contains(&hit.circle) {
            continue;
        }
        let Ok(part) = parts.get(hit.other) else {
            continue;
        };
        let scoring = !game.game_over;
        let mut flash = false;
        match *part {
            // The kicks themselves happened in the sweep, at the instant of impact.
            Part::Sling(_) if hit.kick > 0.0 => {
                game.score += 10 * u64::from(scoring);
                flash = true;
            }
            Part::Bumper(_) if hit.speed > BUMPER_MIN_APPROACH => {
                game.score += 100 * u64::from(scoring);
                flash = true;
            }
            Part::Rollover(k) => {
                let points = table.def.rollovers.get(k).map_or(0, |r| r.points);
                game.score += u64::from(points) * u64::from(scoring);
                if let Some(lit) = game.rollovers_lit.get_mut(k) {
                    *lit = true;
                }
                if game.rollovers_lit.iter().all(|l| *l) {
                    game.score += 5000 * u64::from(scoring);
                    game.message = "All lanes lit: 5,000".into();
                    game.rollovers_lit.iter_mut().for_each(|l| *l = false);
                }
                flash = true;
            }
            Part::Target(k) => {
                if game.targets_down.get(k) == Some(&false) {
                    game.targets_down[k] = true;
                    commands.entity(hit.other).remove::<StaticSegment>();
                    game.score += 250 * u64::from(scoring);
                    if game.targets_down.iter().all(|d| *d) {
                        game.score += 5000 * u64::from(scoring);
                        game.message = "MULTIBALL!".into();
                        // The bank stays down until the next ball is served.
                        game.launch_queue += 2;
                        stats.multiballs += 1;
                    }
                }
                flash = true;
            }
            Part::Drain => {
                commands.entity(hit.circle).despawn();
                gone.insert(hit.circle);
                stats.drained += 1;
            }
            _ => {}
        }
        if flash {
            commands.entity(hit.other).insert(Flash(FLASH_SECONDS));
        }
    }
}

/// Serve the next ball, launch queued balls, bring targets back, end the game.
#[allow(clippy::too_many_arguments)]
fn serve(
    time: Res<Time>,
    mut game: ResMut<Game>,
    mut stats: ResMut<RunStats>,
    table: Res<Table>,
    tune: Res<Tune>,
    balls: Query<&Transform, With<Ball>>,
    targets: Query<(Entity, &Part)>,
    mut commands: Commands,
) {
    let dt = time.delta_secs();
    let def = &table.def;
    let in_play = balls.iter().count() as u32;
    if !game.game_over && in_play == 0 && game.launch_queue == 0 {
        if game.ball_number < def.balls_per_game {
            game.ball_number += 1;
            if game.ball_number > 1 {
                game.message = format!("Ball {}", game.ball_number);
            }
            spawn_ball(&mut commands, &table, &tune.0, v(def.plunger.ball_at), Vec2::ZERO);
            stats.served += 1;
            game.reset_targets = true;
        } else {
            game.game_over = true;
            game.high_score = game.high_score.max(game.score);
            game.message = "GAME OVER: press N for a new game".into();
        }
    }
    if game.launch_queue > 0 {
        game.launch_timer -= dt;
        if game.launch_timer <= 0.0 {
            game.launch_timer = LAUNCH_INTERVAL;
            game.launch_queue -= 1;
            let at = Vec2::new(
                def.plunger.ball_at.0,
                def.plunger.zone_top + def.ball_radius * 2.0,
            );
            // Never on top of another ball.
            if balls
                .iter()
                .all(|tf| tf.translation.truncate().distance(at) > def.ball_radius * 2.5)
            {
                spawn_ball(
                    &mut commands,
                    &table,
                    &tune.0,
                    at,
                    Vec2::new(0.0, AUTO_LAUNCH_SPEED),
                );
                stats.served += 1;
            } else {
                game.launch_queue += 1;
            }
        }
    }
    if game.reset_targets && game.launch_queue == 0 {
        // Up again only where no ball is in the way.
        let clear = |(a, b): &((f32, f32), (f32, f32))| {
            let s = ccd_core::Segment::new(v(*a), v(*b));
            balls.iter().all(|tf| {
                let p = tf.translation.truncate();
                s.closest_point(p).distance(p) > def.ball_radius * 1.5
            })
        };
        if def.targets.iter().all(clear) {
            game.reset_targets = false;
            for (e, part) in &targets {
                if let Part::Target(k) = *part
                    && let Some((a, b)) = def.targets.get(k)
                    && game.targets_down.get(k) == Some(&true)
                {
                    commands.entity(e).insert(StaticSegment::new(v(*a), v(*b)));
                    game.targets_down[k] = false;
                }
            }
        }
    }
}

/// Escapes (a centre outside the outline), NaN, and the ball search for stuck balls.
fn watch_balls(
    time: Res<Time>,
    table: Res<Table>,
    mut stats: ResMut<RunStats>,
    mut balls: Query<(Entity, &Transform, &mut MovingCircle, &mut Ball)>,
    mut commands: Commands,
) {
    let now = time.elapsed_secs();
    let pl = &table.def.plunger;
    for (e, tf, mut c, mut ball) in &mut balls {
        let p = tf.translation.truncate();
        if !p.is_finite() || !c.velocity.is_finite() {
            stats.nan += 1;
            error!("ball {e}: non-finite state at {p} velocity {}", c.velocity);
            commands.entity(e).despawn();
            continue;
        }
        if !inside(&table.ring, p) {
            stats.escapes += 1;
            error!("ball {e} escaped the table at {p} (velocity {})", c.velocity);
            commands.entity(e).despawn();
            continue;
        }
        let waiting = p.x > pl.ball_at.0 - 20.0 && p.y < pl.zone_top;
        let since = *ball.still_since.get_or_insert(now);
        if p.distance(ball.still_at) > STUCK_DISTANCE || waiting {
            ball.still_at = p;
            ball.still_since = Some(now);
        } else if now - since > STUCK_SECONDS {
            // Ball search: a real machine pulses its coils; we nudge the ball.
            eprintln!("ball search: ball {e} still at {p} for {STUCK_SECONDS} s");
            c.velocity += Vec2::new(0.0, 600.0);
            ball.still_since = Some(now);
            stats.ball_searches += 1;
        }
    }
}

fn collect_stats(
    time: Res<Time>,
    ccd: Res<CcdStats>,
    mut stats: ResMut<RunStats>,
    balls: Query<&MovingCircle, With<Ball>>,
) {
    stats.steps += 1;
    stats.simulated += time.delta_secs_f64();
    stats.bounces += u64::from(ccd.bounces);
    stats.max_bounces_step = stats.max_bounces_step.max(ccd.bounces);
    stats.max_bounces_circle = stats.max_bounces_circle.max(ccd.max_bounces_per_circle);
    stats.micros_sum += f64::from(ccd.step_micros);
    let fastest = balls.iter().map(|c| c.velocity.length()).fold(0.0, f32::max);
    stats.fastest_now = fastest;
    stats.max_speed = stats.max_speed.max(fastest);
    let now = stats.simulated;
    if stats.speed_history.back().is_none_or(|(t, _)| now - t >= 0.01) {
        stats.speed_history.push_back((now, fastest));
    }
    while stats
        .speed_history
        .front()
        .is_some_and(|(t, _)| now - t > f64::from(SPEED_HISTORY_SECONDS))
    {
        stats.speed_history.pop_front();
    }
    let hits = ccd.bounces + ccd.sensor_hits;
    stats.hit_window.push_back((now, hits, ccd.bounces));
    while stats.hit_window.front().is_some_and(|(t, _, _)| now - t > 1.0) {
        stats.hit_window.pop_front();
    }
    stats.hits_per_second = stats.hit_window.iter().map(|(_, h, _)| *h).sum::<u32>() as f32;
    stats.recent_max_bounces = stats.hit_window.iter().map(|(_, _, b)| *b).max().unwrap_or(0);
    let window = stats.hit_window.len().max(1) as f32;
    stats.bounces_per_step_avg = stats.hit_window.iter().map(|(_, _, b)| *b).sum::<u32>() as f32 / window;
}
