//! The chains' own checks: no ghost vertex on a straight chain, the face normal on landing, each convex corner met once.

use super::*;

/// A straight open chain of collinear pieces along an axis, exact in f32: its points are
/// `dir·t + perp·c` for the sorted `ts`, in either order.
pub(crate) struct Line {
    pub(crate) chain: Polyline,
    pub(crate) dir: Vec2,
    pub(crate) perp: Vec2,
    pub(crate) c: f32,
    pub(crate) ts: Vec<f32>,
}

/// A multiple of 1/256 in `[lo, hi)` / 256: exact, and exact in sums.
pub(crate) fn dyadic(rng: &mut StdRng, lo: i32, hi: i32) -> f32 {
    rng.random_range(lo..hi) as f32 / 256.0
}

pub(crate) fn straight_chain(rng: &mut StdRng) -> Line {
    let dir = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][rng.random_range(0..4)];
    let perp = dir.perp();
    let c = dyadic(rng, -5120, 5120);
    let pieces = rng.random_range(2..=6);
    let mut ts = vec![dyadic(rng, -5120, 0)];
    for _ in 0..pieces {
        let next = ts.last().unwrap() + dyadic(rng, 64, 2048);
        ts.push(next);
    }
    let mut points: Vec<Vec2> = ts.iter().map(|&t| dir * t + perp * c).collect();
    if rng.random_bool(0.5) {
        points.reverse();
    }
    Line {
        chain: Polyline::open(points),
        dir,
        perp,
        c,
        ts,
    }
}

impl Line {
    /// A random position along the chain: a vertex in a fifth of the cases.
    pub(crate) fn along(&self, rng: &mut StdRng) -> f32 {
        if rng.random_bool(0.2) {
            self.ts[rng.random_range(0..self.ts.len())]
        } else {
            rng.random_range(self.ts[0]..=*self.ts.last().unwrap())
        }
    }

    pub(crate) fn code(&self) -> String {
        Shape::Polyline(self.chain.clone()).code()
    }
}

/// What [`roll_along`] found, per bucket (at the contact height, a hair below it).
#[derive(Default)]
pub(crate) struct Rolling {
    pub(crate) cases: [usize; 2],
    pub(crate) faults: [Vec<String>; 2],
    /// Contacts with the face's normal on a curved leg, by feature, with the first of each.
    pub(crate) tangential: [std::collections::BTreeMap<&'static str, (usize, String)>; 2],
}

/// A ball resting on a straight chain (its centre exactly at its radius from it, or a few
/// ulps below) moving along it at any speed, on a straight leg or (`curved`) with gravity
/// along the chain. On a straight leg every contact is a fault; on a curved one a contact
/// whose normal is not the face's: within [`FACE_NORMAL_TOL`] on a face or an inner
/// vertex, within [`NORMAL_TOL`] at an open end (a tangential touch of its round cap, as
/// of a lone segment's, is grazing). The contacts with the face's normal are counted.
pub(crate) fn roll_along(seed: u64, curved: bool) -> Rolling {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Rolling::default();
    for _ in 0..cases() {
        let line = straight_chain(&mut rng);
        assert!(line.chain.validate().is_ok());
        let side = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let r = dyadic(&mut rng, 1, 768);
        let mut height = line.c + side * r;
        let below = rng.random_bool(0.5);
        if below {
            for _ in 0..rng.random_range(1..64) {
                height = if side > 0.0 {
                    height.next_down()
                } else {
                    height.next_up()
                };
            }
        }
        let x0 = line.along(&mut rng);
        let center = line.dir * x0 + line.perp * height;
        let circle = Circle::new(center, r);
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let speed = sign * 10.0_f32.powf(rng.random_range(-3.0..3.0));
        let duration: f32 = rng.random_range(0.05..1.5);
        let motion = line.dir * (speed * duration);
        let gravity = line.dir * rng.random_range(-50.0..50.0);
        let path = Parabola::new(
            line.dir * speed,
            if curved { gravity } else { Vec2::ZERO },
            duration,
        );
        let bucket = usize::from(below);
        out.cases[bucket] += 1;
        for o in Obstacle::polyline(&line.chain) {
            let (hit, query) = if curved {
                (
                    o.sweep_curved(circle, path).map(|f| f.hit),
                    "o.sweep_curved(circle, path)",
                )
            } else {
                (
                    o.sweep(circle, motion),
                    "o.sweep(circle, path.velocity * path.duration)",
                )
            };
            if let Some(h) = hit {
                let ObstacleShape::Edge(e) = o.shape else {
                    unreachable!()
                };
                let feature = match (h.point == e.segment.a, h.point == e.segment.b) {
                    (true, _) if e.has_before() => "an inner vertex (the edge's start)",
                    (_, true) if e.has_after() => "an inner vertex (the edge's end)",
                    (true, _) | (_, true) => "an open end",
                    _ => "the face",
                };
                let text = format!(
                    "contact on {feature}, normal {:?} ({} off the face's), {h:?}, started {} a vertex\nlet chain = {};\nlet edge = {e:?};\nlet circle = Circle::new({}, {:?});\nlet path = Parabola::new({}, {}, {:?});\n// {query}",
                    h.normal,
                    (h.normal - line.perp * side).abs().max_element(),
                    if line.ts.contains(&x0) { "over" } else { "not over" },
                    line.code(),
                    v_code(circle.center),
                    circle.radius,
                    v_code(path.velocity),
                    v_code(path.gravity),
                    path.duration
                );
                // A tangential touch of an open end's cap is a lone segment's grazing
                // contact: its normal is held to the general contract's tolerance.
                let off = (h.normal - line.perp * side).abs().max_element();
                let allowed = if feature == "an open end" {
                    NORMAL_TOL as f32
                } else {
                    FACE_NORMAL_TOL
                };
                if curved && off <= allowed {
                    out.tangential[bucket].entry(feature).or_insert((0, text)).0 += 1;
                } else {
                    out.faults[bucket].push(text);
                }
            }
        }
    }
    out
}

pub(crate) fn report_rolling(what: &str, rolling: &Rolling) {
    for (k, height) in ["at the contact height", "a hair below it"].iter().enumerate() {
        let tangential: usize = rolling.tangential[k].values().map(|(n, _)| n).sum();
        println!(
            "{what}, {height}: {} cases, {} faults, {tangential} contacts with the face normal",
            rolling.cases[k],
            rolling.faults[k].len()
        );
        for (feature, (n, first)) in &rolling.tangential[k] {
            println!("  {n} with the face normal on {feature}, first: {first}");
        }
        for fault in rolling.faults[k].iter().take(3) {
            println!("  fault: {fault}");
        }
    }
    for faults in &rolling.faults {
        assert!(
            faults.is_empty(),
            "{} faults ({what}), first: {}",
            faults.len(),
            faults[0]
        );
    }
}

/// A ball resting on a straight chain of collinear pieces (at the contact height or a few
/// ulps below it), moving along it at any speed on a straight leg: no edge reports a
/// contact.
#[test]
pub(crate) fn a_ball_rolling_along_a_straight_chain_meets_no_ghost_vertex() {
    report_rolling(
        "rolling along a straight chain, straight legs",
        &roll_along(71, false),
    );
}

/// The same with gravity along the chain (the curved query, its path on the line at the
/// contact distance): no edge reports a contact with a normal other than the face's (no
/// tilted vertex normal; at an open end, within the general 1e-3 rad). The contacts with
/// the face's normal, tangential ones, are counted and printed.
#[test]
pub(crate) fn a_ball_sliding_along_a_straight_chain_under_gravity_along_it_meets_no_tilted_normal() {
    report_rolling(
        "sliding along a straight chain, gravity along it",
        &roll_along(74, true),
    );
}

/// A ball landing on a straight chain (dropped from above, or resting on it and pushed in
/// or thrown up), on a straight leg or with gravity into it: its first contact is where
/// the straight-line formula puts it, and every edge reporting it gives the face normal.
#[test]
pub(crate) fn a_ball_landing_on_a_straight_chain_meets_its_face_normal() {
    let mut rng = StdRng::seed_from_u64(72);
    let n = cases();
    let (mut landed, mut resting, mut skipped) = ([0_usize; 2], [0_usize; 2], 0);
    let mut faults: [Vec<String>; 2] = Default::default();
    for i in 0..n {
        let straight = i % 2 == 0;
        let leg = usize::from(!straight);
        let line = straight_chain(&mut rng);
        let side: f32 = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let face = line.perp * side;
        let on_it = rng.random_bool(1.0 / 3.0);
        let r = if on_it {
            dyadic(&mut rng, 1, 768)
        } else {
            rng.random_range(0.0..3.0)
        };
        let lift = if on_it { 0.0 } else { rng.random_range(1e-3..3.0) };
        let x0 = line.along(&mut rng);
        let center = line.dir * x0 + line.perp * (line.c + side * (r + lift));
        let circle = Circle::new(center, r);
        let (vt, vn): (f32, f32) = (rng.random_range(-60.0..60.0), rng.random_range(-10.0..10.0));
        let (gt, gn): (f32, f32) = (rng.random_range(-20.0..20.0), rng.random_range(1.0..50.0));
        let duration: f32 = rng.random_range(0.05..1.5);
        let (path, motion) = if straight {
            let velocity = line.dir * vt + face * -vn.abs();
            (Parabola::new(velocity, Vec2::ZERO, duration), velocity * duration)
        } else {
            (
                Parabola::new(line.dir * vt + face * vn, line.dir * gt - face * gn, duration),
                Vec2::ZERO,
            )
        };
        // The exact height above the contact height, along and across the chain.
        let h = (center.as_dvec2().dot(face.as_dvec2()) - f64::from(line.c) * f64::from(side)) - f64::from(r);
        let (m, k) = if straight {
            (motion.as_dvec2(), DVec2::ZERO)
        } else {
            let t = f64::from(duration);
            (
                path.velocity.as_dvec2() * t,
                path.gravity.as_dvec2() * (0.5 * t * t),
            )
        };
        let (mn, kn) = (m.dot(face.as_dvec2()), k.dot(face.as_dvec2()));
        let (mt, kt) = (m.dot(line.dir.as_dvec2()), k.dot(line.dir.as_dvec2()));
        // The first s in [0, 1] where h + mn·s + kn·s² = 0, moving in.
        let landing = if h == 0.0 {
            if mn < 0.0 || (mn == 0.0 && kn < 0.0) {
                Some(0.0)
            } else if kn < 0.0 && mn * mn / (-4.0 * kn) > 1e-3 {
                Some(mn / -kn)
            } else {
                None
            }
        } else if kn == 0.0 {
            (mn < 0.0).then(|| h / -mn)
        } else {
            let disc = mn * mn - 4.0 * kn * h;
            (disc >= 0.0).then(|| (-mn - disc.sqrt()) / (2.0 * kn))
        };
        let scale = f64::from(center.abs().max_element())
            .max(m.length())
            .max(k.length())
            .max(f64::from(line.c.abs()) + 70.0);
        let tol = 1e-4 + 1e-6 * scale;
        let foot_margin = 1e-3 * (1.0 + scale);
        let Some(s) = landing.filter(|&s| s <= 1.0 - 1e-3) else {
            skipped += 1;
            continue;
        };
        let foot = f64::from(x0) + mt * s + kt * s * s;
        let (lo, hi) = (f64::from(line.ts[0]), f64::from(*line.ts.last().unwrap()));
        if !(foot > lo + foot_margin && foot < hi - foot_margin) {
            skipped += 1;
            continue;
        }
        landed[leg] += 1;
        resting[leg] += usize::from(h == 0.0);
        let hits: Vec<Option<Hit>> = Obstacle::polyline(&line.chain)
            .map(|o| {
                if straight {
                    o.sweep(circle, motion)
                } else {
                    o.sweep_curved(circle, path).map(|f| f.hit)
                }
            })
            .collect();
        let code = || {
            format!(
                "started {} a vertex, {}\nlet chain = {};\nlet circle = Circle::new({}, {:?});\nlet motion = {};\nlet path = Parabola::new({}, {}, {:?});\n// {}",
                if line.ts.contains(&x0) { "over" } else { "not over" },
                if h == 0.0 {
                    "resting on the chain"
                } else {
                    "above it"
                },
                line.code(),
                v_code(circle.center),
                circle.radius,
                v_code(motion),
                v_code(path.velocity),
                v_code(path.gravity),
                path.duration,
                if straight {
                    "straight: sweep(circle, motion)"
                } else {
                    "curved: sweep_curved(circle, path)"
                }
            )
        };
        let Some(first) = earliest(&hits) else {
            faults[leg].push(format!("no contact, expected one at {s}\n{}", code()));
            continue;
        };
        let speed = (m.length() + 2.0 * k.length()).max(1e-9);
        if (f64::from(first.toi) - s).abs() > tol / speed + 1e-6 {
            faults[leg].push(format!(
                "contact at {}, expected at {s}: {first:?}\n{}",
                first.toi,
                code()
            ));
            continue;
        }
        for h in hits.iter().flatten().filter(|h| h.toi == first.toi) {
            if (h.normal - face).abs().max_element() > FACE_NORMAL_TOL {
                faults[leg].push(format!(
                    "normal {:?}, not the face's {face:?}: {h:?}\n{}",
                    h.normal,
                    code()
                ));
            }
        }
    }
    for (leg, straight) in [true, false].into_iter().enumerate() {
        println!(
            "landing on a straight chain, {}: {} checked landings ({} starts resting on it), {} faults",
            leg_name(straight),
            landed[leg],
            resting[leg],
            faults[leg].len()
        );
        for fault in faults[leg].iter().take(5) {
            println!("  fault: {fault}");
        }
    }
    println!(
        "landing on a straight chain: {n} cases, {skipped} skipped (no landing within the leg and the chain)"
    );
    for (leg, faults) in faults.iter().enumerate() {
        assert!(
            faults.is_empty(),
            "{} faults ({}), first: {}",
            faults.len(),
            leg_name(leg == 0),
            faults[0]
        );
    }
    assert!(
        landed[0] * 4 >= n / 2 && landed[1] * 4 >= n / 2,
        "only {landed:?} landings in {n} cases"
    );
}

/// Convex polygons (and the closed polylines through the same corners) with each corner
/// met from within its cone of normals, on a straight and a curved leg: the first contact
/// is at the corner, at the reference's time, with the normal from the corner to the
/// centre, and no other edge reports the corner at that time. (The edge that does not own
/// the corner may report it later, once the ball is deep in it: counted, not a fault.)
#[test]
pub(crate) fn each_convex_corner_is_met_once_with_the_vertex_normal() {
    let mut rng = StdRng::seed_from_u64(73);
    let n = cases() / 10;
    let (mut corners_met, mut later, mut skipped, mut faults) = (0, 0, 0, Vec::new());
    let mut shallowest = f64::INFINITY;
    for _ in 0..n {
        let count = rng.random_range(3..=8);
        let center = v2(&mut rng, -10.0, 10.0);
        let rho = rng.random_range(1.0..12.0);
        // Angles at least 0.3 apart, around the circle.
        let weights: Vec<f32> = (0..count).map(|_| rng.random_range(0.0..1.0)).collect();
        let total: f32 = weights.iter().sum();
        let spare = std::f32::consts::TAU - 0.3 * count as f32;
        let mut angle: f32 = rng.random_range(0.0..std::f32::consts::TAU);
        let mut points = Vec::new();
        for w in &weights {
            points.push(center + Vec2::from_angle(angle) * rho);
            angle += 0.3 + spare * w / total;
        }
        if rng.random_bool(0.5) {
            points.reverse();
        }
        let polygon = Polygon::new(points.clone());
        let ccw = polygon.twice_signed_area() > 0.0;
        let turns = (0..count).all(|i| {
            let (a, b, c) = (
                points[i].as_dvec2(),
                points[(i + 1) % count].as_dvec2(),
                points[(i + 2) % count].as_dvec2(),
            );
            let turn = (b - a).perp_dot(c - b);
            if ccw { turn > 0.0 } else { turn < 0.0 }
        });
        if polygon.validate().is_err() || !turns {
            skipped += 1;
            continue;
        }
        let shapes = [
            Shape::Polygon(polygon),
            Shape::Polyline(Polyline::closed(points.clone())),
        ];
        for shape in &shapes {
            let exact = Exact::of(shape);
            for i in 0..count {
                let v = points[i];
                let (prev, next) = (points[(i + count - 1) % count], points[(i + 1) % count]);
                // Outward normals of the two edges at the corner.
                let outward = |a: Vec2, b: Vec2| {
                    let d = (b - a).as_dvec2().normalize();
                    if ccw {
                        DVec2::new(d.y, -d.x)
                    } else {
                        DVec2::new(-d.y, d.x)
                    }
                };
                let (n1, n2) = (outward(prev, v), outward(v, next));
                // Within the corner's cone of normals: the closest point of both edges is
                // the corner.
                let in_cone = |n: DVec2| {
                    n.dot((v - prev).as_dvec2().normalize()) >= -1e-6
                        && n.dot((next - v).as_dvec2().normalize()) <= 1e-6
                };
                let u = n1.lerp(n2, rng.random_range(0.1..0.9)).normalize();
                let r: f64 = rng.random_range(0.1..3.0);
                for straight in [true, false] {
                    let (start, path) = if straight {
                        let distance = rng.random_range(0.5..10.0);
                        let start = v.as_dvec2() + u * (r + distance);
                        let travel = distance + r * rng.random_range(0.1..1.0);
                        let duration = rng.random_range(0.1..1.5);
                        (
                            start,
                            Parabola::new((-u * travel / duration).as_vec2(), Vec2::ZERO, duration as f32),
                        )
                    } else {
                        // Back from the contact, at a velocity into the corner's cone.
                        let contact = v.as_dvec2() + u * r;
                        let at_contact = DVec2::from_angle(rng.random_range(-0.5..0.5)).rotate(-u)
                            * rng.random_range(1.0..40.0);
                        let gravity =
                            DVec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
                        let duration: f64 = rng.random_range(0.1..1.5);
                        let t = duration * rng.random_range(0.2..0.9);
                        let velocity = at_contact - gravity * t;
                        let start = contact - velocity * t - gravity * (0.5 * t * t);
                        (
                            start,
                            Parabola::new(velocity.as_vec2(), gravity.as_vec2(), duration as f32),
                        )
                    };
                    let case = Case {
                        circle: Circle::new(start.as_vec2(), r as f32),
                        path,
                        straight,
                        shape,
                        exact: &exact,
                    };
                    let tol = case.tol();
                    if case.gap(0.0) <= tol {
                        skipped += 1;
                        continue;
                    }
                    let truth = reference(&case, &from_start(&case));
                    let Some(s_ref) = truth.first.filter(|_| truth.min_gap.abs() > tol) else {
                        skipped += 1;
                        continue;
                    };
                    // Only contacts whose closest point is the corner.
                    let at = case.at(s_ref);
                    if at.distance(exact.closest(at)) < at.distance(v.as_dvec2()) - 1e-9 * case.scale() {
                        skipped += 1;
                        continue;
                    }
                    corners_met += 1;
                    let hits = case.all_hits();
                    let dt = tol / case.speed().max(1e-9) + 1e-6;
                    let fault = match earliest(&hits) {
                        None => Some(format!("the corner {v:?} is missed: reference {s_ref}")),
                        Some(h) if h.point != v => {
                            Some(format!("the first contact is not at the corner {v:?}: {h:?}"))
                        }
                        Some(h) => {
                            let at_once = hits
                                .iter()
                                .flatten()
                                .filter(|g| g.point == v && f64::from(g.toi) <= f64::from(h.toi) + dt)
                                .count();
                            for g in hits.iter().flatten() {
                                if g.point == v && f64::from(g.toi) > f64::from(h.toi) + dt {
                                    later += 1;
                                    shallowest = shallowest.min(-case.gap(f64::from(g.toi)));
                                }
                            }
                            let expected = (h.center.as_dvec2() - v.as_dvec2()).normalize();
                            if at_once != 1 {
                                Some(format!(
                                    "the corner {v:?} is met {at_once} times at once: {hits:?}"
                                ))
                            } else if (f64::from(h.toi) - s_ref).abs() > dt {
                                Some(format!("corner met at {}, reference {s_ref}: {h:?}", h.toi))
                            } else if (h.normal.as_dvec2() - expected).abs().max_element() > 1e-5
                                || !in_cone(h.normal.as_dvec2())
                            {
                                Some(format!(
                                    "normal {:?}, not the corner's {expected:?}: {h:?}",
                                    h.normal
                                ))
                            } else {
                                None
                            }
                        }
                    };
                    if let Some(e) = fault {
                        faults.push(format!("{e}\n{}", case.code()));
                    }
                }
            }
        }
    }
    println!(
        "convex corners: {n} polygons, {corners_met} corners met ({later} met again later by the other edge, at least {shallowest:.3e} deep), {skipped} skipped, {} faults",
        faults.len()
    );
    for fault in faults.iter().take(5) {
        println!("  fault: {fault}");
    }
    assert!(faults.is_empty(), "{} faults, first: {}", faults.len(), faults[0]);
    assert!(corners_met >= n, "only {corners_met} corners met of {n} polygons");
}
