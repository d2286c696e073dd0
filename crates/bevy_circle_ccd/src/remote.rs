//! Reflection for the core's types that the plugin's components hold: `ccd_core` stays
//! glam-only (no `bevy_reflect`), so its [`CombineRule`], [`HingeSpring`] and
//! [`HingeMotor`] are reflected here with `bevy_reflect`'s remote reflection. Each
//! wrapper mirrors its type field for field and variant for variant (the macro checks it
//! at compile time), and the components name them on their fields with
//! `#[reflect(remote = ...)]`.

use bevy::prelude::ReflectDefault;
use bevy::reflect::reflect_remote;
use ccd_core::{CombineRule, HingeMotor, HingeSpring};

/// Reflects [`CombineRule`].
#[reflect_remote(CombineRule)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Default, Debug, PartialEq)]
pub(crate) enum CombineRuleReflect {
    Classic,
    Average,
    Min,
    Multiply,
    Max,
}

/// Reflects [`HingeSpring`].
#[reflect_remote(HingeSpring)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
pub(crate) struct HingeSpringReflect {
    pub rest_angle: f32,
    pub stiffness: f32,
}

/// Reflects [`HingeMotor`].
#[reflect_remote(HingeMotor)]
#[derive(Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
pub(crate) struct HingeMotorReflect {
    pub target_speed: f32,
    pub max_torque: f32,
}

/// Reflects an optional [`HingeSpring`] ([`Hinge::spring`](crate::Hinge::spring)).
#[reflect_remote(Option<HingeSpring>)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Default, Debug, PartialEq)]
pub(crate) enum OptionalHingeSpring {
    None,
    Some(#[reflect(remote = HingeSpringReflect)] HingeSpring),
}

/// Reflects an optional [`HingeMotor`] ([`Hinge::motor`](crate::Hinge::motor)).
#[reflect_remote(Option<HingeMotor>)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Default, Debug, PartialEq)]
pub(crate) enum OptionalHingeMotor {
    None,
    Some(#[reflect(remote = HingeMotorReflect)] HingeMotor),
}
