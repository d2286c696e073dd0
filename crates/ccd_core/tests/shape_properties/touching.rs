//! Balls that start touching: a contact at once when they move in, never when they move away.

use super::*;

/// What a touching run counted on one sort of leg.
#[derive(Default)]
pub(crate) struct TouchTally {
    pub(crate) cases: usize,
    pub(crate) moving_in: usize,
    pub(crate) moving_away: usize,
    pub(crate) met_again: usize,
    pub(crate) grazing: usize,
    pub(crate) skipped: usize,
    pub(crate) faults: Vec<String>,
}

/// A fifth of `cases()` balls placed touching a shape of `kind` (their gap in
/// `[−1e-5·S, 0]`), moving clearly into it or clearly away, on both sorts of leg.
pub(crate) fn run_touching(kind: Kind, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tallies = [TouchTally::default(), TouchTally::default()];
    for _ in 0..cases() / 5 {
        for t in &mut tallies {
            t.cases += 1;
        }
        let placed = place_touching(&mut rng, kind);
        let Some((shape, circle, exact)) = placed else {
            for t in &mut tallies {
                t.skipped += 1;
            }
            continue;
        };
        let p = circle.center.as_dvec2();
        let n0 = (p - exact.closest(p)).normalize();
        let dir = unit(&mut rng);
        let velocity = dir * rng.random_range(1.0..60.0);
        let gravity = v2(&mut rng, -50.0, 50.0);
        let duration: f32 = rng.random_range(0.05..1.5);
        let scale_case = Case {
            circle,
            path: Parabola::new(velocity, gravity, duration),
            straight: false,
            shape: &shape,
            exact: &exact,
        };
        let tol = scale_case.tol();
        let gap0 = scale_case.gap(0.0);
        let into = dir.as_dvec2().dot(n0) < -0.1;
        // Away from every part of the shape within 10·tol, not only the nearest.
        let near: Vec<DVec2> = exact
            .candidates(p)
            .into_iter()
            .filter(|q| p.distance(*q) - exact.rounding() - f64::from(circle.radius) <= gap0 + 10.0 * tol)
            .filter_map(|q| (p - q).try_normalize())
            .collect();
        let away = !into && near.iter().all(|&m| dir.as_dvec2().dot(m) > 0.1);
        if !into && !away {
            for t in &mut tallies {
                t.skipped += 1;
            }
            continue;
        }
        for (tally, straight) in tallies.iter_mut().zip([true, false]) {
            let case = Case {
                circle,
                path: Parabola::new(velocity, if straight { Vec2::ZERO } else { gravity }, duration),
                straight,
                shape: &shape,
                exact: &exact,
            };
            let found = case.query();
            let fault = if into {
                tally.moving_in += 1;
                match found {
                    Some(f) if f.toi == 0.0 => check_hit(&case, &f).err(),
                    other => Some(format!(
                        "touching (gap {gap0}) and moving in (velocity · normal = {}), got {other:?}",
                        velocity.as_dvec2().dot(n0)
                    )),
                }
            } else {
                tally.moving_away += 1;
                match judge_away(&case, found) {
                    Verdict::Hit => {
                        tally.met_again += 1;
                        None
                    }
                    Verdict::Miss => None,
                    Verdict::Grazing => {
                        tally.grazing += 1;
                        None
                    }
                    Verdict::Fault(e) => Some(e),
                }
            };
            if let Some(e) = fault {
                tally.faults.push(format!("{e}\n{}", case.code()));
            }
        }
    }
    for (tally, straight) in tallies.iter().zip([true, false]) {
        println!(
            "{}, touching starts, {}: {} cases, {} moving in, {} moving away ({} met again later, {} grazing), {} skipped, {} faults",
            kind.name(),
            leg_name(straight),
            tally.cases,
            tally.moving_in,
            tally.moving_away,
            tally.met_again,
            tally.grazing,
            tally.skipped,
            tally.faults.len()
        );
        for fault in tally.faults.iter().take(5) {
            println!("  fault: {fault}");
        }
    }
    for (tally, straight) in tallies.iter().zip([true, false]) {
        assert!(
            tally.faults.is_empty(),
            "{} faults ({}, touching, {}), first: {}",
            tally.faults.len(),
            kind.name(),
            leg_name(straight),
            tally.faults[0]
        );
        assert!(
            tally.moving_in * 4 >= tally.cases && tally.moving_away * 4 >= tally.cases,
            "too few touching cases: {} in, {} away of {}",
            tally.moving_in,
            tally.moving_away,
            tally.cases
        );
    }
}

/// A random shape of `kind` and a ball touching it: its centre the f32 point at the contact
/// distance along a random normal, its radius the f32 that leaves the gap just below 0.
pub(crate) fn place_touching(rng: &mut StdRng, kind: Kind) -> Option<(Shape, Circle, Exact)> {
    let shape = random_shape(rng, kind)?;
    let exact = Exact::of(&shape);
    let outside = |c: Vec2| match &shape {
        Shape::Polygon(p) => !p.contains(c),
        _ => true,
    };
    let p = aim_point(rng, &shape);
    if !outside(p) {
        return None;
    }
    let q = exact.closest(p.as_dvec2());
    let normal = (p.as_dvec2() - q).try_normalize()?;
    if p.as_dvec2().distance(q) < 1e-3 {
        return None;
    }
    let r: f64 = rng.random_range(0.05..3.0);
    let center = (q + normal * (exact.rounding() + r)).as_vec2();
    if !outside(center) {
        return None;
    }
    let scale = shape.scale().max(f64::from(center.abs().max_element())) + 3.0;
    let distance = exact.core_distance(center.as_dvec2());
    // The smallest f32 radius at which the ball touches, in f64 and (a capsule's query
    // grows the ball by its radius in f32) in the f32 sum.
    let mut radius = (distance - exact.rounding()) as f32;
    let short = |radius: f32| match &shape {
        Shape::Capsule(c) => f64::from(radius + c.radius) < distance,
        _ => false,
    };
    while f64::from(radius) + exact.rounding() < distance || short(radius) {
        radius = radius.next_up();
    }
    let gap = distance - exact.rounding() - f64::from(radius);
    (radius >= 0.01 && gap <= 0.0 && gap >= -1e-5 * scale)
        .then(|| (shape, Circle::new(center, radius), exact))
}

#[test]
pub(crate) fn touching_a_capsule_gives_toi_zero_exactly_when_moving_in() {
    run_touching(Kind::Capsule, 61);
}

#[test]
pub(crate) fn touching_an_arc_gives_toi_zero_exactly_when_moving_in() {
    run_touching(Kind::Arc, 62);
}

#[test]
pub(crate) fn touching_an_open_polyline_gives_toi_zero_exactly_when_moving_in() {
    run_touching(Kind::Polyline, 63);
}

#[test]
pub(crate) fn touching_a_polygon_gives_toi_zero_exactly_when_moving_in() {
    run_touching(Kind::Polygon, 64);
}

// ---------------------------------------------------------------------------------------
// Chains: no ghost vertex, one contact per corner
// ---------------------------------------------------------------------------------------
