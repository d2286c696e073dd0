//! The brute-force reference: the first crossing of each part's gap along the leg, and the verdict on a query's answer.

use super::*;

/// The earliest of some contacts (the first of equal ones).
pub(crate) fn earliest(hits: &[Option<Hit>]) -> Option<Hit> {
    hits.iter()
        .flatten()
        .fold(None, |best: Option<Hit>, &h| match best {
            Some(b) if b.toi <= h.toi => Some(b),
            _ => Some(h),
        })
}

// ---------------------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------------------

/// The reference: the first fraction at which the gap reaches zero, and the smallest gap.
pub(crate) struct Reference {
    pub(crate) first: Option<f64>,
    pub(crate) min_gap: f64,
}

/// The reference of `curved_properties.rs` for the part `j` of the shape alone (a chain's
/// edge, or the whole capsule or arc), from the fraction `start` on (where its gap is above
/// 0): samples at `start` and at the multiples of `1 / SAMPLES` after it, the smallest gap
/// taken up to the first sample after `until`. With `start = 0` and `until = 1` these are
/// the samples and the steps of `curved_properties.rs`.
pub(crate) fn part_reference(case: &Case, j: usize, start: f64, until: f64) -> Reference {
    let step = 1.0 / SAMPLES as f64;
    let gap = |s: f64| case.part_gap(j, s);
    // Sample `i` is at `start` for i = 0, else at the (first + i − 1)-th multiple of step.
    let first = (start * SAMPLES as f64).floor() as usize + 1;
    let last = SAMPLES + 1 - first.min(SAMPLES + 1);
    let at = |i: usize| {
        if i == 0 {
            start
        } else {
            (first + i - 1) as f64 * step
        }
    };
    let mut min_gap = f64::INFINITY;
    let (mut prev, mut cur) = (f64::NAN, gap(at(0)));
    for i in 0..=last {
        if at(i) > until + step {
            break;
        }
        let next = if i < last { gap(at(i + 1)) } else { f64::NAN };
        // A crossing between samples.
        if i > 0 && prev > 0.0 && cur <= 0.0 {
            return Reference {
                first: Some(bisect(&gap, at(i - 1), at(i))),
                min_gap: cur.min(min_gap),
            };
        }
        min_gap = min_gap.min(cur);
        // A dip between samples: refine the local minimum around sample i.
        if i > 0 && i < last && cur <= prev && cur <= next {
            let (s, g) = golden_min(&gap, at(i - 1), at(i + 1));
            min_gap = min_gap.min(g);
            if g <= 0.0 {
                let lo = at(i - 1);
                return Reference {
                    first: Some(if gap(lo) > 0.0 { bisect(&gap, lo, s) } else { lo }),
                    min_gap,
                };
            }
        }
        (prev, cur) = (cur, next);
    }
    Reference { first: None, min_gap }
}

/// The reference of `curved_properties.rs` run from the start of the leg on each of the
/// `parts` in step (each part's gap as well-behaved between samples as a lone segment's;
/// the smallest gap is not: a small ball through a thin spike of a chain dips twice within
/// one sample). A crossing found at sample `i` lies in `[i − 1, i + 1]`: the parts are
/// searched one sample further for an earlier one. The smallest gap is taken, as there,
/// up to the sample of the first crossing found, and not after the first sample past
/// `until`.
pub(crate) fn in_step(case: &Case, parts: &[usize], until: f64) -> Reference {
    let step = 1.0 / SAMPLES as f64;
    let r = f64::from(case.circle.radius) + case.exact.rounding();
    let samples = |i: usize| {
        let p = case.at(i as f64 * step);
        parts.iter().map(move |&j| case.exact.part_distance(j, p) - r)
    };
    let mut min_gap = f64::INFINITY;
    let mut first: Option<f64> = None;
    let mut found_at: Option<usize> = None;
    let mut prev = vec![f64::NAN; parts.len()];
    let mut cur: Vec<f64> = samples(0).collect();
    let mut next = vec![f64::NAN; parts.len()];
    for i in 0..=SAMPLES {
        if found_at.is_some_and(|k| i > k + 1) || (i as f64 * step > until + step) {
            break;
        }
        if i < SAMPLES {
            for (n, g) in next.iter_mut().zip(samples(i + 1)) {
                *n = g;
            }
        }
        // The step after the first crossing only looks for an earlier one.
        let counts = found_at.is_none();
        for (k, &j) in parts.iter().enumerate() {
            let gap = |s: f64| case.part_gap(j, s);
            let (p, c, n) = (prev[k], cur[k], if i < SAMPLES { next[k] } else { f64::NAN });
            let mut crossing = None;
            if i > 0 && p > 0.0 && c <= 0.0 {
                // A crossing between samples.
                crossing = Some(bisect(&gap, (i - 1) as f64 * step, i as f64 * step));
                if counts {
                    min_gap = min_gap.min(c);
                }
            } else {
                if counts {
                    min_gap = min_gap.min(c);
                }
                // A dip between samples: refine the local minimum around sample i.
                if i > 0 && i < SAMPLES && c <= p && c <= n {
                    let (s, g) = golden_min(&gap, (i - 1) as f64 * step, (i + 1) as f64 * step);
                    if counts {
                        min_gap = min_gap.min(g);
                    }
                    if g <= 0.0 {
                        let lo = (i - 1) as f64 * step;
                        crossing = Some(if gap(lo) > 0.0 { bisect(&gap, lo, s) } else { lo });
                    }
                }
            }
            if let Some(x) = crossing {
                first = Some(first.map_or(x, |f| f.min(x)));
                found_at.get_or_insert(i);
            }
        }
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur, &mut next);
    }
    Reference { first, min_gap }
}

/// The reference for the whole shape: the first crossing of its gap (the smallest of its
/// parts') is the earliest of the parts' first crossings, and the smallest gap is taken up
/// to the sample after that crossing, as in `curved_properties.rs`. Part `j` is searched
/// from `starts[j]`, or not at all for `None`: those from the start in step
/// ([`in_step`]), the others ([`part_reference`]) each on its own.
pub(crate) fn reference(case: &Case, starts: &[Option<f64>]) -> Reference {
    let at_start: Vec<usize> = (0..starts.len()).filter(|&j| starts[j] == Some(0.0)).collect();
    let together = (!at_start.is_empty()).then(|| in_step(case, &at_start, 1.0));
    let later: Vec<(usize, f64, Reference)> = starts
        .iter()
        .enumerate()
        .filter_map(|(j, start)| {
            start
                .filter(|&s| s > 0.0)
                .map(|s| (j, s, part_reference(case, j, s, 1.0)))
        })
        .collect();
    let first = together
        .iter()
        .filter_map(|r| r.first)
        .chain(later.iter().filter_map(|(_, _, r)| r.first))
        .reduce(f64::min);
    // Each smallest gap up to the first crossing of all.
    let up_to_first = |own: Option<f64>| first.is_some_and(|f| own.is_none_or(|o| o > f));
    let mut min_gap = match &together {
        Some(r) if up_to_first(r.first) => in_step(case, &at_start, first.unwrap_or(1.0)).min_gap,
        Some(r) => r.min_gap,
        None => f64::INFINITY,
    };
    for (j, start, r) in &later {
        min_gap = min_gap.min(if up_to_first(r.first) {
            part_reference(case, *j, *start, first.unwrap_or(1.0)).min_gap
        } else {
            r.min_gap
        });
    }
    Reference { first, min_gap }
}

/// Every part searched from the start of the leg.
pub(crate) fn from_start(case: &Case) -> Vec<Option<f64>> {
    vec![Some(0.0); case.exact.parts()]
}

/// The crossing in `(lo, hi]` for `gap(lo) > 0 >= gap(hi)`.
pub(crate) fn bisect(gap: &impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// The smallest gap on `[lo, hi]`, assumed unimodal there.
pub(crate) fn golden_min(gap: &impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if gap(a) < gap(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let s = 0.5 * (lo + hi);
    (s, gap(s))
}

// ---------------------------------------------------------------------------------------
// The contract
// ---------------------------------------------------------------------------------------

pub(crate) enum Verdict {
    Hit,
    Miss,
    Grazing,
    Fault(String),
}

/// The contract for a leg whose part `j` is clear of the shape (by more than `tol`) at
/// `starts[j]` (parts at `None` are left out).
pub(crate) fn judge(case: &Case, starts: &[Option<f64>], found: Option<Hit>) -> Verdict {
    let tol = case.tol();
    let gap = |s: f64| case.gap(s);
    let truth = reference(case, starts);
    if truth.min_gap.abs() <= tol {
        return Verdict::Grazing;
    }
    match (truth.first, found) {
        (Some(s_ref), None) => Verdict::Fault(format!(
            "miss: min gap {}, first contact at {s_ref}",
            truth.min_gap
        )),
        (None, Some(f)) => Verdict::Fault(format!("false hit: min gap {}, got {f:?}", truth.min_gap)),
        (None, None) => Verdict::Miss,
        (Some(s_ref), Some(f)) => {
            let s = f64::from(f.toi);
            let dt = tol / case.speed().max(1e-9) + 1e-6;
            if s > s_ref + dt || gap(s) < -tol {
                Verdict::Fault(format!(
                    "late by {} (gap {} there): first contact at {s_ref}, got {f:?}",
                    s - s_ref,
                    gap(s)
                ))
            } else if s < s_ref - dt {
                Verdict::Fault(format!(
                    "early by {}: first contact at {s_ref}, got {f:?}",
                    s_ref - s
                ))
            } else if let Err(e) = check_hit(case, &f) {
                Verdict::Fault(e)
            } else {
                Verdict::Hit
            }
        }
    }
}

/// The reported contact's centre is on the leg, its point on the surface and its normal
/// the exact one at its centre.
pub(crate) fn check_hit(case: &Case, f: &Hit) -> Result<(), String> {
    let tol = case.tol();
    let s = f64::from(f.toi);
    let off = (case.at(s) - f.center.as_dvec2()).length();
    if off > tol {
        return Err(format!("centre {off} off the leg: {f:?}"));
    }
    let exact = case.exact;
    let surface = (exact.core_distance(f.point.as_dvec2()) - exact.rounding()).abs();
    if surface > tol {
        return Err(format!("point {surface} off the surface: {f:?}"));
    }
    let n = f.normal.as_dvec2();
    if (n.length() - 1.0).abs() > 1e-5 {
        return Err(format!("normal not unit: {f:?}"));
    }
    let window = 1e-6 * (1.0 + case.scale());
    if let Some(normals) = exact.normals(f.center.as_dvec2(), window)
        && !normals.iter().any(|&m| angle_between(m, n) <= NORMAL_TOL)
    {
        return Err(format!(
            "normal {:?} is {} rad off the exact normal(s) {normals:?}: {f:?}",
            f.normal,
            normals
                .iter()
                .map(|&m| angle_between(m, n))
                .fold(f64::INFINITY, f64::min)
        ));
    }
    Ok(())
}

/// The first fraction at which the part `j` is clear by `tol` (the largest gap of a short
/// excursion between samples counts), or `None`.
pub(crate) fn clear_from(case: &Case, j: usize, tol: f64) -> Option<f64> {
    let step = 1.0 / SAMPLES as f64;
    let minus = |s: f64| -case.part_gap(j, s);
    (0..SAMPLES).find_map(|k| {
        let (lo, hi) = (k as f64 * step, (k + 1) as f64 * step);
        let (s, g) = golden_min(&minus, lo, hi);
        if -g > tol {
            Some(s)
        } else {
            (-minus(hi) > tol).then_some(hi)
        }
    })
}

/// A ball that starts touching and moves clearly away: never `toi == 0`. Each part it
/// touches (within `tol`) is searched from the moment it is clear of it, the others from
/// the start, by the usual contract. A contact on a part it touches, before it is clear of
/// it, is grazing where the ball moves into that part by the exact normal (it came back
/// within `tol`) and a fault where it does not; one on a part it never gets clear of is
/// grazing.
pub(crate) fn judge_away(case: &Case, found: Option<Hit>) -> Verdict {
    if let Some(f) = found
        && f.toi == 0.0
    {
        return Verdict::Fault(format!("moving away from a touching start, but toi == 0: {f:?}"));
    }
    let tol = case.tol();
    let dt = tol / case.speed().max(1e-9) + 1e-6;
    let (mut starts, mut leaving, mut stuck) = (Vec::new(), Vec::new(), Vec::new());
    for j in 0..case.exact.parts() {
        if case.part_gap(j, 0.0) > tol {
            starts.push(Some(0.0));
        } else if let Some(clear) = clear_from(case, j, tol) {
            starts.push(Some(clear));
            leaving.push((j, clear));
        } else {
            starts.push(None);
            stuck.push(j);
        }
    }
    if let Some(f) = found {
        let s = f64::from(f.toi);
        let on =
            |j: usize| (case.exact.part_distance(j, f.point.as_dvec2()) - case.exact.rounding()).abs() <= tol;
        if stuck.iter().any(|&j| on(j)) || starts.iter().all(Option::is_none) {
            // Never clearly away from it: any later contact, if no deeper than tol.
            if case.gap(s) < -tol {
                return Verdict::Fault(format!("deep contact while never clear: {f:?}"));
            }
            return Verdict::Grazing;
        }
        if let Some(&(j, clear)) = leaving.iter().find(|&&(j, clear)| on(j) && s < clear - dt) {
            // Back before it was ever clear of it: a return within tol of the start depth
            // (grazing) if it moves in there by the exact normal, else a false contact.
            let p = case.at(s);
            let normal = (p - case.exact.part_closest(j, p)).normalize_or_zero();
            if case.velocity(s).dot(normal) < 0.0 {
                return Verdict::Grazing;
            }
            return Verdict::Fault(format!("met at {s} while leaving, clear only at {clear}: {f:?}"));
        }
    }
    if starts.iter().all(Option::is_none) {
        return Verdict::Grazing;
    }
    judge(case, &starts, found)
}

// ---------------------------------------------------------------------------------------
// Random scenes
// ---------------------------------------------------------------------------------------
