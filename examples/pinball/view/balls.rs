//! The balls: polished steel with a highlight, a soft shadow toward the bottom right (the
//! light is at the top left), and above [`TRAIL_MIN_SPEED`] a short trail of fading
//! ghosts behind it.

use super::palette::*;
use super::toggles::ViewToggles;
use crate::table::Table;
use crate::table::parts::Ball;
use bevy::prelude::*;
use bevy_circle_ccd::TransformInterpolation;
use bevy_circle_ccd::prelude::*;

/// Ghosts in a fast ball's trail.
const TRAIL_GHOSTS: usize = 5;
/// A ball leaves a trail from this speed, mm/s.
const TRAIL_MIN_SPEED: f32 = 1500.0;
/// Time between the ghosts, seconds: the trail shows where the ball was this long ago
/// (at its present velocity), so it is as long at any frame rate.
const TRAIL_STEP_SECONDS: f32 = 0.008;
/// The last ghost's size as a fraction of the ball's.
const TRAIL_END_FRACTION: f32 = 0.55;

/// The meshes and materials every ball shares.
#[derive(Resource)]
pub struct BallLook {
    body: Handle<Mesh>,
    steel: Handle<ColorMaterial>,
    shine: Handle<Mesh>,
    shine_paint: Handle<ColorMaterial>,
    shadow_paint: Handle<ColorMaterial>,
    /// Per ghost, nearest first: its mesh and its (fainter) material.
    ghosts: Vec<(Handle<Mesh>, Handle<ColorMaterial>)>,
}

/// A ball's trail ghosts, nearest first.
#[derive(Component)]
pub struct Trail(Vec<Entity>);

pub fn ball_look(
    mut commands: Commands,
    table: Res<Table>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let r = table.def.ball_radius;
    let ghosts = (1..=TRAIL_GHOSTS)
        .map(|k| {
            let u = k as f32 / TRAIL_GHOSTS as f32;
            let size = 1.0 - (1.0 - TRAIL_END_FRACTION) * u;
            let alpha = BALL_TRAIL.alpha() * (1.0 - u + 1.0 / TRAIL_GHOSTS as f32);
            let mesh = meshes.add(Circle::new(r * size));
            (mesh, materials.add(BALL_TRAIL.with_alpha(alpha)))
        })
        .collect();
    commands.insert_resource(BallLook {
        body: meshes.add(Circle::new(r)),
        steel: materials.add(BALL_STEEL),
        shine: meshes.add(Circle::new(r * BALL_SHINE_FRACTION)),
        shine_paint: materials.add(BALL_SHINE),
        shadow_paint: materials.add(BALL_SHADOW),
        ghosts,
    });
}

/// Give new balls their look (and interpolation and prediction, as toggled).
pub fn dress_balls(
    mut commands: Commands,
    look: Res<BallLook>,
    toggles: Res<ViewToggles>,
    new: Query<Entity, Added<Ball>>,
) {
    for e in &new {
        let mut ghosts = Vec::with_capacity(TRAIL_GHOSTS);
        let mut ec = commands.entity(e);
        ec.insert((Mesh2d(look.body.clone()), MeshMaterial2d(look.steel.clone())))
            .with_children(|c| {
                c.spawn((
                    Mesh2d(look.shine.clone()),
                    MeshMaterial2d(look.shine_paint.clone()),
                    Transform::from_translation(BALL_SHINE_OFFSET.extend(DETAIL_Z)),
                ));
                c.spawn((
                    Mesh2d(look.body.clone()),
                    MeshMaterial2d(look.shadow_paint.clone()),
                    Transform::from_translation(BALL_SHADOW_OFFSET.extend(SHADOW_LOCAL_Z)),
                ));
                for (mesh, paint) in &look.ghosts {
                    let ghost = (Mesh2d(mesh.clone()), MeshMaterial2d(paint.clone()));
                    ghosts.push(c.spawn((ghost, Visibility::Hidden)).id());
                }
            });
        ec.insert(Trail(ghosts));
        if toggles.interpolation {
            ec.insert(TransformInterpolation);
        }
        if toggles.prediction {
            ec.insert(PredictPath::default());
        }
    }
}

/// Place the ghosts behind each fast ball (in its frame, so they go with it); hide them
/// when it slows down.
pub fn trails(balls: Query<(&MovingCircle, &Trail)>, mut ghosts: Query<(&mut Transform, &mut Visibility)>) {
    for (ball, trail) in &balls {
        let fast = ball.velocity.length() >= TRAIL_MIN_SPEED;
        for (k, e) in trail.0.iter().enumerate() {
            let Ok((mut tf, mut vis)) = ghosts.get_mut(*e) else {
                continue;
            };
            let behind = -ball.velocity * TRAIL_STEP_SECONDS * (k + 1) as f32;
            tf.translation = behind.extend(TRAIL_LOCAL_Z);
            vis.set_if_neq(if fast {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::system::RunSystemOnce;

    /// A ball moving at `speed` mm/s to the right, with its ghosts; returns the ghosts'
    /// offsets and visibilities after `trails` ran.
    fn trail_at(speed: f32) -> Vec<(Vec3, Visibility)> {
        let mut world = World::new();
        let ghosts: Vec<Entity> = (0..TRAIL_GHOSTS)
            .map(|_| world.spawn((Transform::IDENTITY, Visibility::Hidden)).id())
            .collect();
        world.spawn((MovingCircle::new(10.0, Vec2::X * speed), Trail(ghosts.clone())));
        world.run_system_once(trails).unwrap();
        ghosts
            .iter()
            .map(|e| {
                let tf = world.get::<Transform>(*e).unwrap();
                (tf.translation, *world.get::<Visibility>(*e).unwrap())
            })
            .collect()
    }

    #[test]
    fn a_fast_ball_leaves_a_trail_behind_it_and_a_slow_one_none() {
        let fast = trail_at(TRAIL_MIN_SPEED * 2.0);
        assert!(fast.iter().all(|(_, v)| *v == Visibility::Inherited));
        // Behind the ball (it moves to +x), each ghost further back.
        assert!(fast.windows(2).all(|w| w[1].0.x < w[0].0.x && w[0].0.x < 0.0));
        let slow = trail_at(TRAIL_MIN_SPEED * 0.5);
        assert!(slow.iter().all(|(_, v)| *v == Visibility::Hidden));
    }
}
