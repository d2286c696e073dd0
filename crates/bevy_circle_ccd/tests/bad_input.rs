//! Bad input is refused by name, never a panic and never a NaN: one test per kind, then a
//! generated-input test over 100,000 components, each bad one checked against an
//! independent rule for which field must be named.
#![allow(clippy::unwrap_used, reason = "tests: a missing component is a failed test")]

mod common;

use bevy::prelude::*;
use bevy_circle_ccd::prelude::*;
use common::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The field an entity was marked for, if any.
fn field(app: &App, e: Entity) -> Option<String> {
    app.world().get::<CcdInvalid>(e).map(|i| i.field.clone())
}

fn reason(app: &App, e: Entity) -> String {
    app.world()
        .get::<CcdInvalid>(e)
        .map(|i| i.reason.clone())
        .unwrap_or_default()
}

#[test]
fn a_subnormal_mass_or_a_radius_without_a_usable_area_is_refused() {
    let mut app = app(1.0);
    let subnormal = ball(&mut app, 1.0, Vec2::new(0.0, 0.0), Vec2::X);
    app.world_mut().entity_mut(subnormal).insert(CcdMass(1e-40));
    // Radius 1e-20: π r² ≈ 3e-40 is subnormal, and 1 / area is infinite.
    let speck = ball(&mut app, 1e-20, Vec2::new(0.0, 10.0), Vec2::X);
    // Radius 0 is a point: no area, the core's unit mass. Allowed.
    let point = ball(&mut app, 0.0, Vec2::new(0.0, 20.0), Vec2::X);
    // A tiny radius with a mass of its own is fine.
    let weighed = ball(&mut app, 1e-20, Vec2::new(0.0, 30.0), Vec2::X);
    app.world_mut().entity_mut(weighed).insert(CcdMass(1.0));
    steps(&mut app, 1);
    assert_eq!(field(&app, subnormal).as_deref(), Some("CcdMass"));
    assert!(
        reason(&app, subnormal).contains("finite inverse"),
        "{}",
        reason(&app, subnormal)
    );
    assert_eq!(field(&app, speck).as_deref(), Some("MovingCircle.radius"));
    assert_eq!(position(&app, subnormal), Vec2::new(0.0, 0.0), "skipped");
    assert_eq!((field(&app, point), field(&app, weighed)), (None, None));
    assert_eq!(position(&app, point), Vec2::new(1.0, 20.0));
    assert_eq!(app.world().resource::<CcdStats>().skipped, 2);
}

#[test]
fn a_non_finite_gravity_is_refused_and_the_step_runs_without_it() {
    let mut app = app(2.0);
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, f32::NAN);
    let b = ball(&mut app, 1.0, Vec2::ZERO, Vec2::new(4.0, 0.0));
    steps(&mut app, 2);
    // 1 s at 4 units/s, no gravity: exactly (4, 0), finite.
    assert_eq!(position(&app, b), Vec2::new(4.0, 0.0));
    assert_eq!(velocity(&app, b), Vec2::new(4.0, 0.0));
    app.world_mut().resource_mut::<CcdSettings>().gravity = Vec2::new(0.0, -8.0);
    steps(&mut app, 1);
    // Fixed: gravity is back (−8 · 0.5 s on the velocity).
    assert_eq!(velocity(&app, b), Vec2::new(4.0, -4.0));
}

#[test]
fn a_hinge_part_without_a_hinge_is_named_not_a_ghost_wall() {
    let mut app = app(60.0);
    let not_a_hinge = app.world_mut().spawn(Transform::default()).id();
    let part = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)),
            HingePart(not_a_hinge),
        ))
        .id();
    steps(&mut app, 1);
    assert_eq!(field(&app, part).as_deref(), Some("HingePart"));
    assert!(reason(&app, part).contains("Hinge"));
}

#[test]
fn hinge_and_kinematic_on_one_entity_is_refused() {
    let mut app = app(60.0);
    let both = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(50.0, 0.0)),
            Hinge::new(1000.0),
            Kinematic::turning(1.0),
        ))
        .id();
    steps(&mut app, 1);
    assert_eq!(field(&app, both).as_deref(), Some("Kinematic"));
    assert_eq!(app.world().resource::<CcdStats>().kinematic, 0);
}

#[test]
fn bad_springs_stops_and_falloffs_are_named() {
    let mut app = app(60.0);
    let gate = |app: &mut App, hinge: Hinge| {
        app.world_mut()
            .spawn((StaticSegment::new(Vec2::ZERO, Vec2::new(40.0, 0.0)), hinge))
            .id()
    };
    let negative = gate(&mut app, Hinge::new(1000.0).with_spring(0.0, -5.0));
    // ω·dt = √(1e9 / 1000) / 60 ≈ 16.7, far past 2: each step would add energy.
    let unstable = gate(&mut app, Hinge::new(1000.0).with_spring(0.0, 1e9));
    // The README's gate: ω·dt = √(9e5 / 1000) / 60 = 0.5. Stable.
    let readme = gate(
        &mut app,
        Hinge::new(1000.0)
            .with_stops(0.0, 1.6, 0.2)
            .with_spring(-0.2, 900_000.0)
            .with_damping(6.0),
    );
    let bouncy_stop = gate(&mut app, Hinge::new(1000.0).with_stops(0.0, 1.0, 1.5));
    let rubber = wall(&mut app, Vec2::new(100.0, 0.0), Vec2::new(100.0, 50.0));
    app.world_mut()
        .entity_mut(rubber)
        .insert(CcdMaterial::new(0.9, 0.0).with_falloff(0.1, 0.0));
    steps(&mut app, 1);
    assert_eq!(field(&app, negative).as_deref(), Some("Hinge.spring"));
    assert_eq!(field(&app, unstable).as_deref(), Some("Hinge.spring"));
    assert!(
        reason(&app, unstable).contains("ω·dt < 2"),
        "{}",
        reason(&app, unstable)
    );
    assert_eq!(field(&app, readme), None);
    assert_eq!(field(&app, bouncy_stop).as_deref(), Some("Hinge.stops"));
    assert_eq!(field(&app, rubber).as_deref(), Some("CcdMaterial.falloff_speed"));
}

#[test]
fn a_mirroring_scale_on_a_one_sided_part_is_refused() {
    let mut app = app(60.0);
    let gate = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)),
            OneSided,
            Transform::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
        ))
        .id();
    // Two-sided, the same mirror changes nothing: allowed.
    let wall = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-10.0, 5.0), Vec2::new(10.0, 5.0)),
            Transform::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
        ))
        .id();
    // Turned half a turn (scale −1 on both axes) is a rotation, not a mirror: allowed.
    let turned = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(-10.0, 9.0), Vec2::new(10.0, 9.0)),
            OneSided,
            Transform::from_scale(Vec3::new(-1.0, -1.0, 1.0)),
        ))
        .id();
    let flipper = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(10.0, 0.0)),
            OneSided,
            Kinematic::turning(1.0),
            Transform::from_xyz(0.0, -40.0, 0.0).with_scale(Vec3::new(1.0, -1.0, 1.0)),
        ))
        .id();
    steps(&mut app, 1);
    assert_eq!(field(&app, gate).as_deref(), Some("GlobalTransform"));
    assert!(reason(&app, gate).contains("OneSided"));
    assert_eq!((field(&app, wall), field(&app, turned)), (None, None));
    assert_eq!(field(&app, flipper).as_deref(), Some("Transform"));
}

// --- Generated input ---------------------------------------------------------------------

/// Components per generated app, and apps: 100,000 components in all.
const PER_APP: usize = 500;
const APPS: usize = 200;

/// A float that is often bad: NaN, ±∞, negative, zero, subnormal, huge, or ordinary.
fn wild(rng: &mut StdRng) -> f32 {
    match rng.random_range(0..10) {
        0 => f32::NAN,
        1 => f32::INFINITY * if rng.random() { 1.0 } else { -1.0 },
        2 => -rng.random_range(0.0..100.0),
        3 => 0.0,
        4 => f32::from_bits(rng.random_range(1..0x0080_0000)), // subnormal
        5 => 1e30,
        _ => rng.random_range(0.1..100.0),
    }
}

/// A velocity component that is often bad, but never so fast that a ball reaches the next
/// generated part within the test's two steps (1e4 · 2/60 s plus a radius of 100 is well
/// under their 1,000 spacing): each part is judged alone.
fn wild_speed(rng: &mut StdRng) -> f32 {
    let v = wild(rng);
    if v == 1e30 { 1e4 } else { v }
}

/// What the generator made, the field that must be named (by a rule written here, apart
/// from the plugin's checks), or `None` for a good one, and the value the refusal must
/// quote back (as the field's `Display`, or `Debug` for a hinge's spring and stops).
struct Made {
    entity: Entity,
    expect: Option<&'static str>,
    given: Option<String>,
}

/// A ball: radius, velocity, maybe a mass.
fn make_ball(app: &mut App, rng: &mut StdRng, at: Vec2) -> Made {
    let mass = rng.random_bool(0.5).then(|| wild(rng));
    // A radius of 1e30 is refused only for want of a mass (its area is infinite); with a
    // mass of its own it would be a good ball that overlaps every other part, so the
    // generator keeps that huge radius for massless balls (a mass with a radius past the
    // parts' spacing is a scene, not an input, to judge).
    let radius = match wild(rng) {
        r if r == 1e30 && mass.is_some() => 100.0,
        r => r,
    };
    let velocity = Vec2::new(wild_speed(rng), wild_speed(rng));
    let area = std::f32::consts::PI * radius * radius;
    let usable_mass = |m: f32| m.is_finite() && m > 0.0 && (1.0 / m).is_finite();
    let expect = if !radius.is_finite() || radius < 0.0 {
        Some("MovingCircle.radius")
    } else if !velocity.is_finite() {
        Some("MovingCircle.velocity")
    } else if let Some(m) = mass {
        (!usable_mass(m)).then_some("CcdMass")
    } else {
        (radius > 0.0 && !usable_mass(area)).then_some("MovingCircle.radius")
    };
    let mut e = app.world_mut().spawn((
        MovingCircle::new(radius, velocity),
        Transform::from_translation(at.extend(0.0)),
    ));
    if let Some(m) = mass {
        e.insert(CcdMass(m));
    }
    let given = match expect {
        Some("MovingCircle.radius") => Some(radius.to_string()),
        Some("MovingCircle.velocity") => Some(velocity.to_string()),
        Some("CcdMass") => mass.map(|m| m.to_string()),
        _ => None,
    };
    Made {
        entity: e.id(),
        expect,
        given,
    }
}

/// A wall with a material.
fn make_wall(app: &mut App, rng: &mut StdRng, at: Vec2) -> Made {
    let (restitution, friction, falloff, speed) = (wild(rng), wild(rng), wild(rng), wild(rng));
    let bad = |v: f32| !v.is_finite() || v < 0.0;
    let expect = if bad(restitution) {
        Some("CcdMaterial.restitution")
    } else if bad(friction) {
        Some("CcdMaterial.friction")
    } else if bad(falloff) {
        Some("CcdMaterial.falloff")
    } else if bad(speed) || (falloff > 0.0 && speed == 0.0) {
        Some("CcdMaterial.falloff_speed")
    } else {
        None
    };
    let given = match expect {
        Some("CcdMaterial.restitution") => Some(restitution),
        Some("CcdMaterial.friction") => Some(friction),
        Some("CcdMaterial.falloff") => Some(falloff),
        Some(_) => Some(speed),
        None => None,
    }
    .map(|v| v.to_string());
    let material = CcdMaterial::new(restitution, friction).with_falloff(falloff, speed);
    let entity = app
        .world_mut()
        .spawn((
            StaticSegment::new(at, at + Vec2::new(1.0, 0.0)),
            material,
            Transform::default(),
        ))
        .id();
    Made {
        entity,
        expect,
        given,
    }
}

/// A hinge with a spring and stops.
fn make_hinge(app: &mut App, rng: &mut StdRng, at: Vec2, dt: f32) -> Made {
    let (inertia, stiffness, restitution, damping) = (wild(rng), wild(rng), wild(rng), wild(rng));
    let bad = |v: f32| !v.is_finite() || v < 0.0;
    let expect = if !inertia.is_finite() || !(inertia > 0.0) || !(1.0 / inertia).is_finite() {
        Some("Hinge.inertia")
    } else if bad(damping) {
        Some("Hinge.damping")
    } else if bad(stiffness) {
        Some("Hinge.spring")
    } else if bad(restitution) || restitution > 1.0 {
        Some("Hinge.stops")
    } else if (stiffness / inertia).sqrt() * dt >= 2.0 {
        Some("Hinge.spring")
    } else {
        None
    };
    let hinge = Hinge::new(inertia)
        .with_damping(damping)
        .with_spring(0.0, stiffness)
        .with_stops(-1.0, 1.0, restitution);
    let given = match expect {
        Some("Hinge.inertia") => Some(inertia.to_string()),
        Some("Hinge.damping") => Some(damping.to_string()),
        Some("Hinge.spring") => hinge.spring.map(|s| format!("{s:?}")),
        Some(_) => hinge.stops.map(|s| format!("{s:?}")),
        None => None,
    };
    let entity = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::new(1.0, 0.0)),
            hinge,
            Transform::from_translation(at.extend(0.0)),
        ))
        .id();
    Made {
        entity,
        expect,
        given,
    }
}

#[test]
fn generated_components_are_refused_by_name_and_never_spread_nan() {
    let hz = 60.0;
    let dt = (1.0 / hz) as f32;
    let mut rng = StdRng::seed_from_u64(28);
    let (mut inputs, mut bad, mut quoted) = (0, 0, 0);
    for _ in 0..APPS {
        let mut app = app(hz);
        // Audited too: the audit must take bad circles in its stride, and the good parts,
        // far apart, never meet.
        app.world_mut().resource_mut::<CcdSettings>().audit = true;
        let mut made = Vec::with_capacity(PER_APP);
        for k in 0..PER_APP {
            // Far apart, so that no good part meets another: each is judged alone.
            let at = Vec2::new((k % 25) as f32 * 1000.0, (k / 25) as f32 * 1000.0);
            made.push(match k % 3 {
                0 => make_ball(&mut app, &mut rng, at),
                1 => make_wall(&mut app, &mut rng, at),
                _ => make_hinge(&mut app, &mut rng, at, dt),
            });
        }
        steps(&mut app, 2);
        for m in &made {
            inputs += 1;
            bad += usize::from(m.expect.is_some());
            assert_eq!(field(&app, m.entity).as_deref(), m.expect, "{:?}", m.entity);
            if let Some(given) = &m.given {
                let reason = reason(&app, m.entity);
                assert!(reason.ends_with(&format!("; given {given}")), "{reason}");
                quoted += 1;
            }
            if let Some(c) = app.world().get::<MovingCircle>(m.entity)
                && m.expect.is_none()
            {
                let t = app.world().get::<Transform>(m.entity).unwrap();
                assert!(
                    c.velocity.is_finite() && t.translation.is_finite(),
                    "{:?}",
                    m.entity
                );
            }
        }
        let faults = app.world().resource::<bevy_circle_ccd::CcdFaults>();
        assert_eq!(faults.count, 0, "{faults:?}");
        let mut hinges = app.world_mut().query::<&Hinge>();
        for h in hinges.iter(app.world()) {
            assert!(h.angle.is_finite() && h.angular_velocity.is_finite());
        }
    }
    assert_eq!(inputs, PER_APP * APPS);
    // Each kind is bad often enough to be tested: over 30% of them by construction.
    assert!(bad > inputs * 3 / 10, "{bad} bad of {inputs}");
    assert_eq!(quoted, bad, "every refusal quotes the value given");
    println!("{inputs} generated components, {bad} bad, each named by its field and quoted");
}

#[test]
fn a_refusal_quotes_the_value_given() {
    let mut app = app(60.0);
    let spawn = |app: &mut App, bundle: (CcdShape, Transform)| app.world_mut().spawn(bundle).id();
    let segment = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::new(f32::NAN, 0.0), Vec2::X),
            Transform::default(),
        ))
        .id();
    let pillar = app
        .world_mut()
        .spawn((Pillar::new(-2.0), Transform::default()))
        .id();
    let capsule = spawn(
        &mut app,
        (
            CcdShape::capsule(Vec2::ZERO, Vec2::X, f32::INFINITY),
            Transform::default(),
        ),
    );
    let bow_tie = spawn(
        &mut app,
        (
            CcdShape::polygon([Vec2::ZERO, Vec2::ONE, Vec2::X, Vec2::Y]),
            Transform::default(),
        ),
    );
    let compound = spawn(
        &mut app,
        (
            CcdShape::compound([
                CcdShape::rect(Vec2::ONE),
                CcdShape::arc(Vec2::ZERO, -3.0, 0.0, 1.0),
            ]),
            Transform::default(),
        ),
    );
    let flat = spawn(
        &mut app,
        (
            CcdShape::rect(Vec2::ONE),
            Transform::from_scale(Vec3::new(0.0, 1.0, 1.0)),
        ),
    );
    let kicker = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::X),
            Kicker::new(0.0, 0.0, f32::NAN),
            Transform::default(),
        ))
        .id();
    let spinning = app
        .world_mut()
        .spawn((
            StaticSegment::new(Vec2::ZERO, Vec2::X),
            Kinematic::turning(f32::NAN),
            Transform::default(),
        ))
        .id();
    let rubber_ball = ball(&mut app, 1.0, Vec2::new(500.0, 500.0), Vec2::ZERO);
    app.world_mut()
        .entity_mut(rubber_ball)
        .insert(CcdMaterial::new(-1.0, 0.0));
    steps(&mut app, 1);
    let expected = [
        (rubber_ball, "CcdMaterial.restitution", "-1"),
        (segment, "StaticSegment.a", "[NaN, 0]"),
        (pillar, "Pillar.radius", "-2"),
        (capsule, "CcdShape.radius", "inf"),
        (
            bow_tie,
            "CcdShape.points",
            "4 points [[0, 0], [1, 1], [1, 0], [0, 1]]",
        ),
        (compound, "CcdShape.radius", "-3"),
        (
            flat,
            "GlobalTransform",
            "translation [0, 0, 0], x axis [0, 0, 0], y axis [0, 1, 0]",
        ),
        (kicker, "Kicker.speed", "NaN"),
        (
            spinning,
            "Kinematic",
            "Velocity { angular: NaN, linear: Vec2(0.0, 0.0) }",
        ),
    ];
    for (entity, name, given) in expected {
        assert_eq!(
            field(&app, entity).as_deref(),
            Some(name),
            "{}",
            reason(&app, entity)
        );
        let reason = reason(&app, entity);
        assert!(reason.ends_with(&format!("; given {given}")), "{name}: {reason}");
    }
}
