//! Double-double arithmetic (about 106 significant bits) for the few
//! inclusion–exclusion sums of the fast exact method. Dekker's splitting is
//! used instead of `f64::mul_add` because without a target FMA the latter is
//! a library call, several times slower than these few flops.

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Dd {
    pub hi: f64,
    pub lo: f64,
}

#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

#[inline]
fn quick_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

#[inline]
fn split(a: f64) -> (f64, f64) {
    let t = 134_217_729.0 * a; // 2^27 + 1
    let hi = t - (t - a);
    (hi, a - hi)
}

#[inline]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

impl Dd {
    pub const ZERO: Dd = Dd { hi: 0.0, lo: 0.0 };
    pub const ONE: Dd = Dd { hi: 1.0, lo: 0.0 };

    /// Exact for every u64 (the high part takes the top 53 bits, the low part the rest).
    pub fn from_u64(x: u64) -> Dd {
        let hi = x as f64;
        // `hi` may round up past x; the difference fits in an i64 and is exact in f64.
        let lo = (x as i128 - hi as i128) as f64;
        let (h, l) = quick_two_sum(hi, lo);
        Dd { hi: h, lo: l }
    }

    pub fn add(self, b: Dd) -> Dd {
        let (s, e) = two_sum(self.hi, b.hi);
        let (t, f) = two_sum(self.lo, b.lo);
        let (s, e) = quick_two_sum(s, e + t);
        let (hi, lo) = quick_two_sum(s, e + f);
        Dd { hi, lo }
    }

    pub fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }

    pub fn sub(self, b: Dd) -> Dd {
        self.add(b.neg())
    }

    pub fn mul(self, b: Dd) -> Dd {
        let (p, e) = two_prod(self.hi, b.hi);
        let (hi, lo) = quick_two_sum(p, e + (self.hi * b.lo + self.lo * b.hi));
        Dd { hi, lo }
    }

    pub fn div(self, b: Dd) -> Dd {
        let q1 = self.hi / b.hi;
        let r = self.sub(b.mul(Dd { hi: q1, lo: 0.0 }));
        let q2 = r.hi / b.hi;
        let r = r.sub(b.mul(Dd { hi: q2, lo: 0.0 }));
        let q3 = r.hi / b.hi;
        let (hi, lo) = quick_two_sum(q1, q2);
        Dd { hi, lo }.add(Dd { hi: q3, lo: 0.0 })
    }

    /// self^e by binary powering; the relative error grows like e * 2^-105,
    /// which the caller keeps harmless by using this only where the powers
    /// are small compared with the sum they enter.
    pub fn powu(self, mut e: u128) -> Dd {
        let mut base = self;
        let mut acc = Dd::ONE;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(base);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(base);
                if base.hi == 0.0 {
                    return Dd::ZERO;
                }
            }
        }
        acc
    }

    pub fn to_f64(self) -> f64 {
        self.hi + self.lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_times_three_is_one_to_105_bits() {
        let third = Dd::ONE.div(Dd::from_u64(3));
        let back = third.mul(Dd::from_u64(3)).sub(Dd::ONE);
        assert!(back.to_f64().abs() < 1e-31, "{back:?}");
    }

    #[test]
    fn from_u64_is_exact_for_large_values() {
        let x = u64::MAX - 12345;
        let d = Dd::from_u64(x);
        assert_eq!(d.hi as i128 + d.lo as i128, x as i128);
    }

    #[test]
    fn powu_matches_exact_small_power() {
        // (1 - 1/1024)^3 = 1023^3 / 2^30 exactly representable in dd.
        let b = Dd::from_u64(1023).div(Dd::from_u64(1024));
        let p = b.powu(3);
        let exact = Dd::from_u64(1023 * 1023 * 1023).div(Dd::from_u64(1 << 30));
        assert!((p.sub(exact)).to_f64().abs() < 1e-30);
    }
}
