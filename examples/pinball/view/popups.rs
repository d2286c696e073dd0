//! Score pop-ups: "+250" rises from where the ball hit and fades out.

use super::display::grouped;
use super::palette::*;
use crate::game::rules::PartHit;
use bevy::prelude::*;

/// How long a pop-up shows, seconds.
const POPUP_SECONDS: f32 = 0.9;
/// How far it rises in that time, mm.
const POPUP_RISE_MM: f32 = 45.0;
/// A pop-up starting near another (closer than this, mm) starts this much higher, so
/// quick hits on one bumper stack up instead of printing over each other.
const POPUP_STACK_MM: f32 = 20.0;

/// A pop-up: where it started and its age, seconds.
#[derive(Component)]
pub struct Popup {
    from: Vec2,
    age: f32,
}

pub fn spawn_popups(
    mut commands: Commands,
    mut hits: MessageReader<PartHit>,
    shown: Query<&Transform, With<Popup>>,
) {
    let mut placed: Vec<Vec2> = shown.iter().map(|tf| tf.translation.truncate()).collect();
    for hit in hits.read().filter(|h| h.points > 0) {
        let mut at = hit.point;
        while placed.iter().any(|p| p.distance(at) < POPUP_STACK_MM) {
            at.y += POPUP_STACK_MM;
        }
        placed.push(at);
        commands.spawn((
            Text2d::new(format!("+{}", grouped(hit.points))),
            TextFont {
                font_size: FontSize::Px(POPUP_TEXT_MM),
                ..default()
            },
            TextColor(POPUP),
            Transform::from_translation(at.extend(POPUP_Z)),
            Popup { from: at, age: 0.0 },
        ));
    }
}

/// Rise (easing out) and fade; gone after [`POPUP_SECONDS`].
pub fn float_popups(
    time: Res<Time>,
    mut commands: Commands,
    mut popups: Query<(Entity, &mut Popup, &mut Transform, &mut TextColor)>,
) {
    for (e, mut popup, mut tf, mut colour) in &mut popups {
        popup.age += time.delta_secs();
        let u = popup.age / POPUP_SECONDS;
        if u >= 1.0 {
            commands.entity(e).despawn();
            continue;
        }
        let rise = POPUP_RISE_MM * (1.0 - (1.0 - u) * (1.0 - u));
        tf.translation = (popup.from + Vec2::Y * rise).extend(POPUP_Z);
        colour.0 = POPUP.with_alpha(1.0 - u * u);
    }
}
