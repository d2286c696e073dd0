//! Property tests of the swept queries and the multi-bounce sweep against an independent,
//! brute-force f64 reference (`reference/mod.rs`).
//!
//! The accuracy contract checked here: with `S` the largest magnitude among the
//! coordinates, the motion and the radii, and `tol = 1e-4 + 1e-6·S`,
//! - at the reported toi the exact distance from `hit.center` to the obstacle equals the
//!   contact distance within `tol`, and no earlier contact exists (the true first contact
//!   is not earlier than the reported toi by more than `tol / |motion|`);
//! - `hit.normal` is within 1e-3 rad of the exact normal at `hit.center`;
//! - a circle that starts in contact gets `toi == 0` exactly when it moves into the
//!   obstacle;
//! - only truly grazing cases (closest approach within `tol` of the contact distance) may
//!   disagree with the reference on hit or miss.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod reference;

use ccd_core::{
    Circle, Hit, Obstacle, Segment, SweepSettings, Vec2, sweep_bounces, sweep_circle_circle,
    sweep_circle_segment,
};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError};
use reference::{P, Reference, Seg, angle_between, inside_polygon, reference};
use std::f64::consts::TAU;

/// Largest allowed angle between a reported normal and the exact one, in radians.
const NORMAL_TOL: f64 = 1e-3;

/// The distance tolerance of the accuracy contract for a query of scale `s`.
fn tolerance(s: f64) -> f64 {
    1e-4 + 1e-6 * s
}

fn v32(p: P) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

fn unit(angle: f64) -> P {
    P::new(angle.cos(), angle.sin())
}

// ---------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------

/// The obstacle of a case.
#[derive(Clone, Copy, Debug)]
enum Target {
    Segment(Segment),
    Circle(Circle),
}

/// One swept query: a circle moving by `motion` against a static `target`.
#[derive(Clone, Copy, Debug)]
struct Case {
    circle: Circle,
    motion: Vec2,
    target: Target,
}

impl Case {
    fn run(&self) -> Option<Hit> {
        match self.target {
            Target::Segment(s) => sweep_circle_segment(self.circle, self.motion, s),
            Target::Circle(o) => sweep_circle_circle(self.circle, self.motion, o),
        }
    }

    /// The obstacle as the reference sees it, and the contact distance.
    fn reference_target(&self) -> (Seg, f64) {
        let r = f64::from(self.circle.radius);
        match self.target {
            Target::Segment(s) => (Seg::new(P::from32(s.a), P::from32(s.b)), r),
            Target::Circle(o) => (Seg::point(P::from32(o.center)), r + f64::from(o.radius)),
        }
    }

    /// `S`: the largest magnitude among the coordinates, the motion and the radii.
    fn scale(&self) -> f64 {
        let mut s = [
            self.circle.center.x.abs(),
            self.circle.center.y.abs(),
            self.circle.radius,
            self.motion.length(),
        ]
        .into_iter()
        .fold(0.0_f32, f32::max);
        let more = match self.target {
            Target::Segment(seg) => [seg.a.x, seg.a.y, seg.b.x, seg.b.y],
            Target::Circle(o) => [o.center.x, o.center.y, o.radius, 0.0],
        };
        for x in more {
            s = s.max(x.abs());
        }
        f64::from(s)
    }
}

/// Scene geometry, drawn independently of the obstacle kind.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// Size of the scene around its origin.
    scale: f64,
    /// The scene's origin: the world origin or far from it.
    origin: P,
    /// 0: touching or overlapping; 1: at the contact distance, give or take; else anywhere.
    start_kind: u8,
    start: P,
    /// Where on the obstacle a contact start or an aimed motion goes (0..1 along it).
    along: f64,
    depth: f64,
    angle: f64,
    /// 0..=2: aimed at the obstacle; 3: nearly tangent to an end cap; else random.
    motion_kind: u8,
    motion_exp: f64,
    motion_angle: f64,
    aim_gain: f64,
    jitter: f64,
}

fn scene_scale() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1.0), Just(10.0), Just(100.0), Just(1000.0), Just(1e4)]
}

fn unit_square() -> impl Strategy<Value = P> {
    (-1.0_f64..1.0, -1.0_f64..1.0).prop_map(|(x, y)| P::new(x, y))
}

fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![1 => Just(0.0_f32), 2 => 0.0_f32..1.0, 4 => 0.0_f32..50.0]
}

prop_compose! {
    fn layout()(
        (scale, far, offset) in (scene_scale(), any::<bool>(), unit_square()),
        (start_kind, start, along, depth, angle) in
            (0_u8..5, unit_square(), 0.0_f64..=1.0, 0.0_f64..=1.0, 0.0..TAU),
        (motion_kind, motion_exp, motion_angle, aim_gain, jitter) in
            (0_u8..6, -3.0_f64..4.0, 0.0..TAU, 0.2_f64..3.0, -2.0_f64..2.0),
    ) -> Layout {
        let room = (1e4 - 2.0 * scale).max(0.0);
        let origin = if far { offset.scale(room) } else { P::new(0.0, 0.0) };
        Layout {
            scale, origin, start_kind, start, along, depth, angle,
            motion_kind, motion_exp, motion_angle, aim_gain, jitter,
        }
    }
}

impl Layout {
    /// Place the start and the motion for an obstacle `seg` (a point for a circle) with
    /// contact distance `contact`.
    fn place(&self, seg: Seg, contact: f64) -> (P, P) {
        let on = seg.a.add(seg.b.sub(seg.a).scale(self.along));
        let start = match self.start_kind {
            // Touching or overlapping: within `contact` of a point of the obstacle.
            0 => on.add(unit(self.angle).scale(contact * self.depth)),
            // At the contact distance give or take a gap from 1e-9 to 0.1 of the scene's
            // scale, inside or outside: from rounding-level contact to just clear.
            1 => {
                let gap = self.scale * 10_f64.powf(-9.0 + 8.0 * self.depth);
                let gap = if self.jitter < 0.0 { -gap.min(contact) } else { gap };
                on.add(unit(self.angle).scale(contact + gap))
            }
            // Anywhere in the scene, or around it when the circle is large.
            _ => self
                .origin
                .add(self.start.scale(1.5 * self.scale + 2.0 * contact)),
        };
        let motion = match self.motion_kind {
            // Aimed at a point of the obstacle, give or take a couple of radii.
            0..=2 => {
                let to = on.sub(start);
                let side = P::new(-to.y, to.x);
                let side = if side.len() > 0.0 {
                    side.scale(1.0 / side.len())
                } else {
                    side
                };
                on.add(side.scale(self.jitter * contact))
                    .sub(start)
                    .scale(self.aim_gain)
            }
            // Nearly tangent to the contact circle around an end point: grazing and
            // near-grazing passes.
            3 => {
                let end = if self.along < 0.5 { seg.a } else { seg.b };
                let to = end.sub(start);
                let len = to.len();
                if len > 0.0 {
                    let side = P::new(-to.y, to.x).scale(1.0 / len);
                    let miss = contact * (1.0 + self.jitter * 1e-3);
                    end.add(side.scale(miss)).sub(start).scale(self.aim_gain)
                } else {
                    unit(self.motion_angle)
                }
            }
            _ => unit(self.motion_angle).scale(10_f64.powf(self.motion_exp)),
        };
        // Motions up to 1e4.
        let len = motion.len();
        let motion = if len > 1e4 {
            motion.scale(1e4 / len)
        } else {
            motion
        };
        (start, motion)
    }
}

prop_compose! {
    fn segment_case()(
        layout in layout(),
        (a, b, zero_length) in (unit_square(), unit_square(), prop::bool::weighted(0.12)),
        r in radius(),
    ) -> Case {
        let a = v32(layout.origin.add(a.scale(layout.scale)));
        let b = if zero_length { a } else { v32(layout.origin.add(b.scale(layout.scale))) };
        let seg = Seg::new(P::from32(a), P::from32(b));
        let (start, motion) = layout.place(seg, f64::from(r));
        Case {
            circle: Circle::new(v32(start), r),
            motion: v32(motion),
            target: Target::Segment(Segment::new(a, b)),
        }
    }
}

prop_compose! {
    fn circle_case()(
        layout in layout(),
        q in unit_square(),
        r in radius(),
        r2 in radius(),
    ) -> Case {
        let q = v32(layout.origin.add(q.scale(layout.scale)));
        let contact = f64::from(r) + f64::from(r2);
        let (start, motion) = layout.place(Seg::point(P::from32(q)), contact);
        Case {
            circle: Circle::new(v32(start), r),
            motion: v32(motion),
            target: Target::Circle(Circle::new(q, r2)),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

/// What every hit must satisfy, whatever the inputs.
fn check_invariants(circle: Circle, motion: Vec2, hit: &Hit) -> Result<(), String> {
    ensure!(
        hit.toi.is_finite() && (0.0..=1.0).contains(&hit.toi),
        "toi {} not in [0, 1]",
        hit.toi
    );
    let center = circle.center + motion * hit.toi;
    ensure!(
        hit.center.x.to_bits() == center.x.to_bits() && hit.center.y.to_bits() == center.y.to_bits(),
        "hit.center {:?} is not circle.center + motion * toi = {:?}",
        hit.center,
        center
    );
    ensure!(
        hit.center.is_finite() && hit.point.is_finite() && hit.normal.is_finite(),
        "non-finite field in {hit:?}"
    );
    ensure!(
        motion.dot(hit.normal) < 0.0,
        "normal {:?} does not oppose the motion {motion:?}",
        hit.normal
    );
    Ok(())
}

/// Which checks [`check_case`] makes.
#[derive(Clone, Copy, PartialEq)]
enum Checks {
    /// Hit or miss, the start-in-contact rule, the distance at `hit.center`, no point of
    /// the exact path deeper than `tol` before the reported toi, the normal.
    Agreement,
    /// Also: the reference's first contact is not earlier than the reported toi by more
    /// than `tol / |motion|` (no reported hit later than the true first contact).
    AgreementAndTiming,
}

/// A case as the reference sees it, in f64.
struct Exact {
    /// The obstacle: the segment, or the pillar's centre as a point.
    seg: Seg,
    /// The circle's start centre.
    c: P,
    /// The motion, and its length.
    m: P,
    m_len: f64,
    /// The contact distance: the radius, plus the pillar's.
    contact: f64,
    /// The distance tolerance of the accuracy contract.
    tol: f64,
}

/// Compare a query's answer with the brute-force reference.
fn check_case(case: &Case, hit: Option<Hit>, checks: Checks) -> Result<(), String> {
    if let Some(h) = &hit {
        check_invariants(case.circle, case.motion, h)?;
        ensure!(
            (h.normal.length() - 1.0).abs() <= 1e-5,
            "normal {:?} is not unit",
            h.normal
        );
    }
    let (seg, contact) = case.reference_target();
    let tol = tolerance(case.scale());
    let c = P::from32(case.circle.center);
    let m = P::from32(case.motion);
    let m_len = m.len();
    if m_len == 0.0 {
        ensure!(hit.is_none(), "zero motion gave {hit:?}");
        return Ok(());
    }
    let ex = Exact {
        seg,
        c,
        m,
        m_len,
        contact,
        tol,
    };
    if let Some(h) = &hit {
        check_hit_point(h, case.target, &ex)?;
    }
    let rf = reference(&seg, c, m, contact);

    // Clearly overlapping at the start: toi == 0 exactly when moving in.
    if rf.d0 <= contact - tol {
        return check_start_overlap(hit, &ex, &rf);
    }
    // Grazing: either answer is allowed.
    if (rf.d_min - contact).abs() <= tol {
        return Ok(());
    }
    if rf.d_min > contact + tol {
        ensure!(
            hit.is_none(),
            "closest approach {} > contact {contact} + tol {tol}, but got {hit:?}",
            rf.d_min
        );
        return Ok(());
    }
    // A clear hit is due.
    let Some(h) = hit else {
        return Err(format!(
            "missed: closest approach {} at t = {} < contact {contact} - tol {tol}; first contact at t = {:?}",
            rf.d_min, rf.t_min, rf.first_contact
        ));
    };
    check_clear_hit(&h, &ex, &rf, checks)
}

/// `hit.point` lies on the obstacle, within `tol`.
fn check_hit_point(h: &Hit, target: Target, ex: &Exact) -> Result<(), String> {
    match target {
        Target::Segment(_) => {
            let off = ex.seg.dist(P::from32(h.point));
            ensure!(off <= ex.tol, "hit.point {:?} is {off} off the segment", h.point);
        }
        Target::Circle(o) => {
            let off = (P::from32(h.point).sub(P::from32(o.center)).len() - f64::from(o.radius)).abs();
            ensure!(off <= ex.tol, "hit.point {:?} is {off} off the pillar", h.point);
        }
    }
    Ok(())
}

/// The circle starts clearly overlapping the obstacle: toi == 0 exactly when it moves in,
/// with the exact start normal; only toi when the centre is on the obstacle.
fn check_start_overlap(hit: Option<Hit>, ex: &Exact, rf: &Reference) -> Result<(), String> {
    let Exact {
        seg,
        c,
        m,
        m_len,
        tol,
        ..
    } = *ex;
    if rf.d0 < tol {
        // The centre is on the obstacle: the normal is a convention, only toi is checked.
        if let Some(h) = hit {
            ensure!(
                h.toi == 0.0,
                "starts overlapping (d0 = {}) but toi = {}",
                rf.d0,
                h.toi
            );
        }
        return Ok(());
    }
    let n0 = c.sub(seg.closest(c)).scale(1.0 / rf.d0);
    let into = m.dot(n0) / m_len;
    match hit {
        Some(h) => {
            ensure!(
                h.toi == 0.0,
                "starts overlapping (d0 = {}) but toi = {}",
                rf.d0,
                h.toi
            );
            ensure!(
                into <= NORMAL_TOL,
                "starts overlapping and moving away ({into}), got {h:?}"
            );
            let err = angle_between(P::from32(h.normal), n0);
            ensure!(
                err <= NORMAL_TOL,
                "normal {:?} is {err} rad off the exact start normal ({}, {})",
                h.normal,
                n0.x,
                n0.y
            );
        }
        None => ensure!(
            into >= -NORMAL_TOL,
            "starts overlapping and moving in ({into}), got None"
        ),
    }
    Ok(())
}

/// A clear hit was due and came: the distance at `hit.center` is the contact distance,
/// no point of the exact path before the toi is `tol` deep, the toi is not late (with
/// [`Checks::AgreementAndTiming`]) and the normal is the exact one.
fn check_clear_hit(h: &Hit, ex: &Exact, rf: &Reference, checks: Checks) -> Result<(), String> {
    let Exact {
        seg,
        c,
        m,
        m_len,
        contact,
        tol,
    } = *ex;
    let center = P::from32(h.center);
    let dc = seg.dist(center);
    ensure!(
        (dc - contact).abs() <= tol,
        "distance at hit.center {dc} != contact {contact} (tol {tol}); reference first contact t = {:?}",
        rf.first_contact
    );
    // On the exact path, no point before the reported toi is deeper than `tol` inside.
    let deep = reference(&seg, c, m, contact - tol).first_contact.unwrap_or(1.0);
    ensure!(
        f64::from(h.toi) <= deep,
        "the exact path is already {tol} deep at t = {deep}, before the reported toi {}",
        h.toi
    );
    let first = rf.first_contact.unwrap_or(0.0);
    ensure!(
        checks == Checks::Agreement || f64::from(h.toi) <= first + tol / m_len,
        "reported toi {} is later than the first contact {first} by more than tol/|m| = {}",
        h.toi,
        tol / m_len
    );
    if dc >= tol {
        let exact = center.sub(seg.closest(center));
        let err = angle_between(P::from32(h.normal), exact);
        ensure!(
            err <= NORMAL_TOL,
            "normal {:?} is {err} rad off the exact normal ({}, {}) at hit.center",
            h.normal,
            exact.x / dc,
            exact.y / dc
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Arbitrary f32 input
// ---------------------------------------------------------------------------------------

fn any_coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => any::<f32>(),
        3 => -1e4_f32..1e4,
        2 => -f32::MAX..f32::MAX,
        1 => -1e-30_f32..1e-30,
        1 => prop::sample::select(vec![
            0.0,
            -0.0,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]),
    ]
}

fn any_radius() -> impl Strategy<Value = f32> {
    prop_oneof![3 => any_coord(), 2 => 0.0_f32..50.0, 1 => Just(0.0_f32)]
}

fn any_vec() -> impl Strategy<Value = Vec2> {
    (any_coord(), any_coord()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn check_arbitrary(case: &Case, unit_normal: bool) -> Result<(), String> {
    let hit = case.run();
    let usable = |c: Circle| c.center.is_finite() && c.radius.is_finite() && c.radius >= 0.0;
    let ok = usable(case.circle)
        && case.motion.is_finite()
        && match case.target {
            Target::Segment(s) => s.a.is_finite() && s.b.is_finite(),
            Target::Circle(o) => usable(o),
        };
    if !ok {
        ensure!(hit.is_none(), "unusable input gave {hit:?}");
    }
    if let Some(h) = &hit {
        check_invariants(case.circle, case.motion, h)?;
        ensure!(
            !unit_normal || (h.normal.length() - 1.0).abs() <= 1e-5,
            "normal {:?} is not unit (length {})",
            h.normal,
            h.normal.length()
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Polygons
// ---------------------------------------------------------------------------------------

/// A closed star-shaped polygon around the origin, a circle inside it and a velocity.
#[derive(Clone, Debug)]
struct Room {
    vertices: Vec<Vec2>,
    circle: Circle,
    velocity: Vec2,
}

impl Room {
    fn walls(&self) -> Vec<Obstacle> {
        let n = self.vertices.len();
        (0..n)
            .map(|i| Obstacle::segment(Segment::new(self.vertices[i], self.vertices[(i + 1) % n])))
            .collect()
    }

    fn polygon(&self) -> Vec<P> {
        self.vertices.iter().map(|&v| P::from32(v)).collect()
    }
}

/// Smallest exact distance from `p` to the polygon's edges.
fn distance_to_walls(p: P, poly: &[P]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| Seg::new(poly[i], poly[(i + 1) % n]).dist(p))
        .fold(f64::INFINITY, f64::min)
}

prop_compose! {
    fn room()(n in 8_usize..=40)(
        jitter in prop::collection::vec(0.0_f64..0.8, n),
        radii in prop::collection::vec(200.0_f64..1000.0, n),
        r in 1.0_f32..20.0,
        (start_angle, start_frac) in (0.0..TAU, 0.0_f64..0.95),
        (speed_exp, heading) in (0.0_f64..5.0, 0.0..TAU),
    ) -> Room {
        // Angle gaps below 1.8·τ/8 < π/2 and radii ≥ 200 keep every edge at least ~150
        // from the origin, so the origin is always a valid start.
        let n = jitter.len();
        let vertices: Vec<Vec2> = (0..n)
            .map(|i| v32(unit(TAU * (i as f64 + jitter[i]) / n as f64).scale(radii[i])))
            .collect();
        let poly: Vec<P> = vertices.iter().map(|&v| P::from32(v)).collect();
        // A start on a ray from the origin, a fraction of the way to the wall; the origin
        // if that would touch a wall.
        let dir = unit(start_angle);
        let mut reach = 0.0;
        for k in 1..=2000 {
            let p = dir.scale(f64::from(k));
            if !inside_polygon(p, &poly) {
                break;
            }
            reach = f64::from(k);
        }
        let start = v32(dir.scale(reach * start_frac));
        let start_p = P::from32(start);
        let start = if inside_polygon(start_p, &poly)
            && distance_to_walls(start_p, &poly) > f64::from(r) + 1e-2
        {
            start
        } else {
            Vec2::ZERO
        };
        Room {
            vertices,
            circle: Circle::new(start, r),
            velocity: v32(unit(heading).scale(10_f64.powf(speed_exp))),
        }
    }
}

/// Run `steps` steps of 1/60 s in the room; after each, check containment and (if
/// `check_speed`) that the speed is within 1e-5 relative of the initial speed.
fn check_room(room: &Room, steps: usize, check_speed: bool) -> Result<(), String> {
    let walls = room.walls();
    let poly = room.polygon();
    let dt = 1.0_f32 / 60.0;
    let r = room.circle.radius;
    let speed0 = f64::from(room.velocity.length());
    let (mut center, mut velocity) = (room.circle.center, room.velocity);
    let mut bounces = 0;
    for step in 0..steps {
        let out = sweep_bounces(
            room.circle.at(center),
            velocity,
            dt,
            &walls,
            &SweepSettings::default(),
            |_| {},
        )
        .map_err(|e| format!("step {step}: {e}"))?;
        // The scale of this step's queries: the room (≤ 1000), the motion and the radius.
        let s = 1000_f64.max(f64::from((velocity * dt).length()));
        let tol = tolerance(s);
        let p = P::from32(out.center);
        ensure!(
            out.center.is_finite() && out.velocity.is_finite(),
            "step {step}: non-finite outcome {out:?}"
        );
        ensure!(
            inside_polygon(p, &poly),
            "step {step}: centre {:?} left the polygon (from {center:?} at {velocity:?}, {} bounces so far)",
            out.center,
            bounces
        );
        let d = distance_to_walls(p, &poly);
        ensure!(
            d >= f64::from(r) - tol,
            "step {step}: centre {:?} is {d} from a wall < r {r} - tol {tol} (from {center:?} at {velocity:?})",
            out.center
        );
        bounces += out.bounces;
        (center, velocity) = (out.center, out.velocity);
        let speed = f64::from(velocity.length());
        ensure!(
            !check_speed || ((speed - speed0) / speed0).abs() <= 1e-5,
            "step {step}: speed {speed} differs from {speed0} by {:e} relative after {bounces} bounces",
            (speed - speed0) / speed0
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

fn fail(e: String) -> TestCaseError {
    TestCaseError::fail(e)
}

/// Shrunk failures are saved in `crates/ccd_core/proptest-regressions/properties.txt`
/// (cargo runs tests from the package root) and replayed first on every run.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::with_cases(cases)
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    #[test]
    fn segment_sweep_matches_reference(case in segment_case()) {
        check_case(&case, case.run(), Checks::Agreement).map_err(fail)?;
    }

    #[test]
    fn segment_sweep_first_contact_is_not_late(case in segment_case()) {
        check_case(&case, case.run(), Checks::AgreementAndTiming).map_err(fail)?;
    }

    #[test]
    fn circle_sweep_matches_reference(case in circle_case()) {
        check_case(&case, case.run(), Checks::Agreement).map_err(fail)?;
    }

    #[test]
    fn circle_sweep_first_contact_is_not_late(case in circle_case()) {
        check_case(&case, case.run(), Checks::AgreementAndTiming).map_err(fail)?;
    }
}

proptest! {
    #![proptest_config(config(4000))]

    /// toi in [0, 1], `hit.center` bitwise `center + motion * toi`, every field finite,
    /// the contact approached; unusable input (NaN, infinity, negative radius) gives None.
    #[test]
    fn segment_sweep_arbitrary_input(
        center in any_vec(), r in any_radius(), motion in any_vec(), a in any_vec(), b in any_vec(),
    ) {
        let case = Case { circle: Circle::new(center, r), motion, target: Target::Segment(Segment::new(a, b)) };
        check_arbitrary(&case, false).map_err(fail)?;
    }

    #[test]
    fn circle_sweep_arbitrary_input(
        center in any_vec(), r in any_radius(), motion in any_vec(), q in any_vec(), r2 in any_radius(),
    ) {
        let case = Case { circle: Circle::new(center, r), motion, target: Target::Circle(Circle::new(q, r2)) };
        check_arbitrary(&case, false).map_err(fail)?;
    }

    /// [`Hit::normal`] is documented as a unit vector, for any input.
    #[test]
    fn arbitrary_input_normal_is_unit(
        center in any_vec(), r in any_radius(), motion in any_vec(), a in any_vec(), b in any_vec(),
        r2 in any_radius(),
    ) {
        let segment = Case { circle: Circle::new(center, r), motion, target: Target::Segment(Segment::new(a, b)) };
        check_arbitrary(&segment, true).map_err(fail)?;
        let pillar = Case { circle: Circle::new(center, r), motion, target: Target::Circle(Circle::new(a, r2)) };
        check_arbitrary(&pillar, true).map_err(fail)?;
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// A ball bouncing in a closed polygon never leaves it nor sinks into a wall.
    #[test]
    fn bouncing_in_a_polygon_stays_inside(room in room()) {
        check_room(&room, 20, false).map_err(fail)?;
    }
}

proptest! {
    #![proptest_config(config(40))]

    /// Elastic, frictionless bounces keep the speed within 1e-5 relative, however many there
    /// are (up to 16 per step over 240 steps).
    #[test]
    fn elastic_bounces_keep_the_speed(room in room()) {
        check_room(&room, 240, true).map_err(fail)?;
    }
}

// ---------------------------------------------------------------------------------------
// The minimal counter-examples found by the properties above, by hand
// ---------------------------------------------------------------------------------------

/// A shallow approach (about 0.17° to a long segment): the line of the segment is
/// `y = 0.3·x`; the centre's signed distance to it is `(3000·t − 1900) / √1 090 000`, so the
/// first contact (distance 1) is at `t = (1900 − √1 090 000) / 3000 = 0.285 323 116…`.
/// The path crosses the segment, so this is no grazing case.
#[test]
fn shallow_approach_first_contact_is_not_late() {
    let case = Case {
        circle: Circle::new(Vec2::new(293.0, 86.0), 1.0),
        motion: Vec2::new(1000.0, 303.0),
        target: Target::Segment(Segment::new(Vec2::ZERO, Vec2::new(1000.0, 300.0))),
    };
    let exact = (1900.0 - 1_090_000_f64.sqrt()) / 3000.0;
    let (seg, contact) = case.reference_target();
    let rf = reference(
        &seg,
        P::from32(case.circle.center),
        P::from32(case.motion),
        contact,
    );
    assert!((rf.first_contact.unwrap() - exact).abs() < 1e-12, "{rf:?}");
    check_case(&case, case.run(), Checks::AgreementAndTiming).unwrap();
}

/// A circle touching a wall (its radius is the f32 just above the exact distance 0.7 from
/// its centre to the segment) moving straight into it, and 5 units on through it.
#[test]
fn touching_start_moving_in_is_a_hit() {
    let case = Case {
        circle: Circle::new(Vec2::new(1.0, 2.5), 0.700_000_05),
        motion: Vec2::new(4.0, -3.0),
        target: Target::Segment(Segment::new(Vec2::ZERO, Vec2::new(3.0, 4.0))),
    };
    let hit = case.run();
    check_case(&case, hit, Checks::Agreement).unwrap();
    let hit = hit.unwrap();
    assert_eq!(hit.toi, 0.0);
}

/// The same through [`sweep_bounces`]: the ball must not end on the far side of the wall.
#[test]
fn touching_start_moving_in_does_not_tunnel() {
    let wall = [Obstacle::segment(Segment::new(Vec2::ZERO, Vec2::new(3.0, 4.0)))];
    let ball = Circle::new(Vec2::new(1.0, 2.5), 0.700_000_05);
    let out = sweep_bounces(
        ball,
        Vec2::new(4.0, -3.0),
        1.0,
        &wall,
        &SweepSettings::default(),
        |_| {},
    )
    .unwrap();
    // The start's side of the line through (0, 0) and (3, 4): 3·y − 4·x > 0.
    let side = |p: Vec2| 3.0 * p.y - 4.0 * p.x;
    assert!(side(ball.center) > 0.0);
    assert!(side(out.center) > 0.0, "tunnelled to {out:?}");
}

/// Bouncing in the square with corners (±200, 0), (0, ±200): every normal is (±√½, ±√½).
#[test]
fn elastic_bounces_keep_the_speed_in_a_diamond() {
    let room = Room {
        vertices: vec![
            Vec2::new(200.0, 0.0),
            Vec2::new(0.0, 200.0),
            Vec2::new(-200.0, 0.0),
            Vec2::new(0.0, -200.0),
        ],
        circle: Circle::new(Vec2::ZERO, 1.0),
        velocity: Vec2::new(1000.0, 0.0),
    };
    check_room(&room, 1200, true).unwrap();
}

/// A centre 1e-22 from the obstacle: `(center − point)` has a subnormal squared length.
#[test]
fn normal_is_unit_for_a_tiny_offset() {
    let circle = Circle::new(Vec2::new(1e-22, 0.0), 1.0);
    let motion = Vec2::new(-1.0, 0.0);
    for case in [
        Case {
            circle,
            motion,
            target: Target::Segment(Segment::new(Vec2::ZERO, Vec2::ZERO)),
        },
        Case {
            circle,
            motion,
            target: Target::Circle(Circle::new(Vec2::ZERO, 1.0)),
        },
    ] {
        check_arbitrary(&case, true).unwrap();
    }
}
