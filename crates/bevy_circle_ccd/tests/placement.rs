//! Where an obstacle is swept: at the pose its `Transform` (and its parents') gives at the
//! time of the step, however it got there inside `FixedUpdate` (spawned, moved,
//! re-parented); and a `Kinematic` keeps moving while it has no shape.
//!
//! Every wall test shares one scene, worked by hand: a ball of radius 10 at (0, 30) going
//! up at 6,000 units/s, stopping on contact, with a fixed step of 1/60 s. Free, it moves
//! 6,000/60 = 100 units and ends the step at y = 130. A horizontal wall at y = 100 across
//! x = 0 stops it where its edge touches the wall, at y = 100 − 10 = 90.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;
use std::f32::consts::FRAC_PI_2;

/// Fixed steps per second.
const HZ: f64 = 60.0;
/// The ball's radius.
const RADIUS: f32 = 10.0;
/// Where the ball starts.
const START: Vec2 = Vec2::new(0.0, 30.0);
/// The ball's speed, straight up.
const SPEED: f32 = 6_000.0;
/// Where the wall should be: a horizontal line at this height across x = 0.
const WALL_Y: f32 = 100.0;
/// Where the ball stops against that wall: its centre one radius below it.
const STOPPED: Vec2 = Vec2::new(0.0, WALL_Y - RADIUS);
/// Far enough from the ball's path (100 units in one step) to be out of its reach.
const FAR: f32 = 1_000.0;
/// How close the ball must stop to the hand-computed point: the contact is found in f32
/// at coordinates near 100, so far below this.
const TOL: f32 = 1e-3;

/// The fast ball, stopping on contact.
fn fast_ball(app: &mut App) -> Entity {
    let b = ball(app, RADIUS, START, Vec2::new(0.0, SPEED));
    app.world_mut().entity_mut(b).insert(CircleResponse::Stop);
    b
}

/// A horizontal wall 100 long, centred on its origin.
fn horizontal() -> StaticSegment {
    StaticSegment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0))
}

/// Run `action` once, in `FixedUpdate` before the plugin prepares the step, on the next
/// step.
fn once_in_fixed_update<M>(app: &mut App, action: impl IntoScheduleConfigs<ScheduleSystem, M>) {
    #[derive(Resource)]
    struct Armed;
    app.insert_resource(Armed);
    app.add_systems(
        FixedUpdate,
        (action, |mut commands: Commands| {
            commands.remove_resource::<Armed>()
        })
            .chain()
            .run_if(resource_exists::<Armed>)
            .before(CircleCcdSystems::Prepare),
    );
    single_threaded(app);
}

/// Step once and check that the ball stopped at the wall.
fn assert_stopped_at_wall(app: &mut App, b: Entity) {
    let free_end = START.y + SPEED / HZ as f32;
    assert_eq!(free_end, 130.0);
    steps(app, 1);
    let p = position(app, b);
    assert!(
        close(p, STOPPED, TOL),
        "the ball ended at {p}, not at {STOPPED} (free, it would reach y = {free_end})"
    );
    assert_eq!(velocity(app, b), Vec2::ZERO);
}

#[test]
fn a_wall_spawned_in_fixed_update_stops_the_ball_on_its_first_step() {
    // Spawned in the very step the ball reaches it, at (0, 100): the ball stops at y = 90.
    // Swept at its `GlobalTransform`, which Bevy sets only after the fixed steps, it sat at
    // the origin for that step, and the ball went on to y = 130.
    let mut app = app(HZ);
    let b = fast_ball(&mut app);
    once_in_fixed_update(&mut app, |mut commands: Commands| {
        commands.spawn((horizontal(), Transform::from_xyz(0.0, WALL_Y, 0.0)));
    });
    assert_stopped_at_wall(&mut app, b);
}

#[test]
fn a_wall_moved_in_fixed_update_is_swept_where_it_was_moved_to() {
    // The wall starts far above, and a step passes (so Bevy has propagated that pose).
    // Moved down to y = 100 in the step the ball comes, it stops the ball at y = 90.
    let mut app = app(HZ);
    let wall = app
        .world_mut()
        .spawn((horizontal(), Transform::from_xyz(0.0, FAR, 0.0)))
        .id();
    steps(&mut app, 1);
    let b = fast_ball(&mut app);
    once_in_fixed_update(&mut app, move |mut walls: Query<&mut Transform>| {
        if let Ok(mut t) = walls.get_mut(wall) {
            t.translation.y = WALL_Y;
        }
    });
    assert_stopped_at_wall(&mut app, b);
}

/// A parent at (20, 40) turned a quarter turn counter-clockwise; the wall on it, at (60, 0)
/// in its space, is the vertical segment x = 0, y ∈ [−50, 50] of its own space.
/// A point p of the wall's space is at (20, 40) + R(90°)·((60, 0) + p) in the world, with
/// R(90°)·(x, y) = (−y, x): the ends (0, −50) and (0, 50) go to (20, 40) + (50, 60) =
/// (70, 100) and (20, 40) + (−50, 60) = (−30, 100): a horizontal wall at y = 100 across
/// x = 0. Without the parent's turn it would be vertical, at x = 60, and miss the ball.
fn turned_parent(app: &mut App, translation: Vec2) -> Entity {
    app.world_mut()
        .spawn(
            Transform::from_translation(translation.extend(0.0))
                .with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
        )
        .id()
}

/// Where [`turned_parent`] puts the wall's parent for the wall to be at y = 100.
const PARENT_AT: Vec2 = Vec2::new(20.0, 40.0);

/// The wall that [`turned_parent`] turns into place.
fn upright_wall(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(0.0, -50.0), Vec2::new(0.0, 50.0)),
            Transform::from_xyz(60.0, 0.0, 0.0),
        ))
        .id()
}

#[test]
fn a_wall_re_parented_in_fixed_update_is_swept_at_its_new_parent() {
    // The wall starts on a parent far to the right (at (1,000, 0), not turned: the wall
    // is upright at x = 1,060). Moved onto the turned parent at (20, 40) in the step the
    // ball comes, it lies across the ball's path at y = 100 and stops it at y = 90.
    let mut app = app(HZ);
    let far = app.world_mut().spawn(Transform::from_xyz(FAR, 0.0, 0.0)).id();
    let near = turned_parent(&mut app, PARENT_AT);
    let wall = upright_wall(&mut app);
    app.world_mut().entity_mut(wall).insert(ChildOf(far));
    steps(&mut app, 1);
    let b = fast_ball(&mut app);
    once_in_fixed_update(&mut app, move |mut commands: Commands| {
        commands.entity(wall).insert(ChildOf(near));
    });
    assert_stopped_at_wall(&mut app, b);
}

#[test]
fn a_wall_whose_parent_moves_in_fixed_update_moves_with_it() {
    // The turned parent starts 900 units higher (its wall at y = 1,000), and comes down to
    // (20, 40) in the step the ball comes: only the parent's Transform changed, and the
    // wall, at y = 100, stops the ball at y = 90.
    let mut app = app(HZ);
    let parent = turned_parent(&mut app, PARENT_AT + Vec2::new(0.0, FAR - WALL_Y));
    let wall = upright_wall(&mut app);
    app.world_mut().entity_mut(wall).insert(ChildOf(parent));
    steps(&mut app, 1);
    let b = fast_ball(&mut app);
    once_in_fixed_update(&mut app, move |mut parents: Query<&mut Transform>| {
        if let Ok(mut t) = parents.get_mut(parent) {
            t.translation = PARENT_AT.extend(0.0);
        }
    });
    assert_stopped_at_wall(&mut app, b);
}

#[test]
fn a_wall_taken_off_its_parent_in_fixed_update_is_swept_at_its_own_transform() {
    // The wall's own Transform puts it at (0, 100); on a parent at (1,000, 0) it is at
    // (1,000, 100). Taken off the parent in the step the ball comes, it is at (0, 100).
    let mut app = app(HZ);
    let far = app.world_mut().spawn(Transform::from_xyz(FAR, 0.0, 0.0)).id();
    let wall = app
        .world_mut()
        .spawn((horizontal(), Transform::from_xyz(0.0, WALL_Y, 0.0), ChildOf(far)))
        .id();
    steps(&mut app, 1);
    let b = fast_ball(&mut app);
    once_in_fixed_update(&mut app, move |mut commands: Commands| {
        commands.entity(wall).remove::<ChildOf>();
    });
    assert_stopped_at_wall(&mut app, b);
}

#[test]
fn a_wall_whose_grandparent_is_let_go_in_fixed_update_moves_with_its_parent() {
    // Wall (at its parent's origin) → parent at (0, 100) in its parent's space → a
    // grandparent at (1,000, 0): the wall is at (1,000, 100). The parent is taken off the
    // grandparent in the step the ball comes: neither the wall nor the parent changed its
    // Transform, yet the wall is now at (0, 100).
    let mut app = app(HZ);
    let grandparent = app.world_mut().spawn(Transform::from_xyz(FAR, 0.0, 0.0)).id();
    let parent = app
        .world_mut()
        .spawn((Transform::from_xyz(0.0, WALL_Y, 0.0), ChildOf(grandparent)))
        .id();
    app.world_mut()
        .spawn((horizontal(), Transform::default(), ChildOf(parent)));
    steps(&mut app, 1);
    let b = fast_ball(&mut app);
    once_in_fixed_update(&mut app, move |mut commands: Commands| {
        commands.entity(parent).remove::<ChildOf>();
    });
    assert_stopped_at_wall(&mut app, b);
}

// --- Kinematic bodies without a shape ----------------------------------------------------

/// The angle a `Transform` is turned to about z.
fn angle(app: &App, e: Entity) -> f32 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .rotation
        .to_euler(EulerRot::ZYX)
        .0
}

#[test]
fn a_kinematic_without_a_shape_keeps_moving() {
    // A gate turning at 1 rad/s, at 60 Hz: 30 steps with its segment, 60 without, 30 with
    // it again. 120 steps of 1/60 s turn it by 2 rad; stopped while it had no segment, it
    // came back 60 steps, 1 rad, behind (at 1 rad). A body that never has a shape, sliding
    // at 30 units/s, is moved too: 2 s · 30 = 60 units.
    const OMEGA: f32 = 1.0;
    const SLIDE: f32 = 30.0;
    let mut app = app(HZ);
    let gate = flipper(&mut app, Vec2::ZERO, 40.0, 0.0, Kinematic::turning(OMEGA));
    let slider = app
        .world_mut()
        .spawn((
            Kinematic::Velocity {
                angular: 0.0,
                linear: Vec2::new(SLIDE, 0.0),
            },
            Transform::default(),
        ))
        .id();
    steps(&mut app, 30);
    let segment = app.world_mut().entity_mut(gate).take::<StaticSegment>().unwrap();
    steps(&mut app, 60);
    app.world_mut().entity_mut(gate).insert(segment);
    steps(&mut app, 30);
    // 120 additions of 1/60 in f32 round by well under 1e-4 in all.
    let turned = angle(&app, gate);
    assert!((turned - 2.0).abs() < 1e-4, "the gate is at {turned} rad, not 2");
    let slid = position(&app, slider);
    assert!(close(slid, Vec2::new(60.0, 0.0), 1e-3), "the slider is at {slid}");
    assert!(app.world().get::<CcdInvalid>(gate).is_none());
    assert!(app.world().get::<CcdInvalid>(slider).is_none());
}

#[test]
fn a_followed_kinematic_back_from_no_shape_sweeps_from_its_last_pose() {
    // A followed flipper, 40 long from the origin, at 0 rad. Its segment is taken off, and
    // while it has none it is turned to 1 rad. When the segment comes back, its pose has
    // not changed since the last step: it must not be swept over the 1 rad it turned while
    // it had no shape. A resting ball 20 from the pivot at 0.5 rad lies in that sweep (it
    // would be batted away) and is left where it is.
    let mut app = app(HZ);
    let arm = flipper(&mut app, Vec2::ZERO, 40.0, 0.0, Kinematic::FollowTransform);
    steps(&mut app, 1);
    let segment = app.world_mut().entity_mut(arm).take::<StaticSegment>().unwrap();
    app.world_mut().get_mut::<Transform>(arm).unwrap().rotation = Quat::from_rotation_z(1.0);
    steps(&mut app, 2);
    let at = Vec2::from_angle(0.5) * 20.0;
    let b = ball(&mut app, 1.0, at, Vec2::ZERO);
    app.world_mut().entity_mut(arm).insert(segment);
    steps(&mut app, 1);
    assert_eq!(position(&app, b), at);
    assert_eq!(velocity(&app, b), Vec2::ZERO);
}
