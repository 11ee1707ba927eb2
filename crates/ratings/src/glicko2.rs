//! The Glicko-2 update for one rating period, step by step as in
//! Glickman's paper (the step numbers below are his).

use std::f64::consts::PI;

/// The ratio between the Glicko scale and Glicko-2's internal one.
const SCALE: f64 = 173.7178;

/// A player's rating: strength, how uncertain it is, how erratic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// On the familiar scale, 1500 for a newcomer.
    pub rating: f64,
    /// The rating deviation (RD): about 95 % of the time the true strength
    /// lies within two of it.
    pub deviation: f64,
    /// How much the player's strength is expected to fluctuate.
    pub volatility: f64,
}

impl Rating {
    /// A player never rated: 1500, RD 350, volatility 0.06 (the paper's
    /// suggested start).
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// One game's result against one opponent, from the rated player's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result {
    Win,
    Draw,
    Loss,
}

impl Result {
    fn score(self) -> f64 {
        match self {
            Result::Win => 1.0,
            Result::Draw => 0.5,
            Result::Loss => 0.0,
        }
    }
}

/// The system's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko2 {
    /// τ, which constrains the change in volatility over time (the paper
    /// suggests 0.3 to 1.2; 0.5 here, as in its example).
    pub tau: f64,
    /// The convergence tolerance of the volatility iteration.
    pub epsilon: f64,
    /// The largest deviation a rating may have (a newcomer's): inactivity
    /// never makes a rating less certain than a new one.
    pub max_deviation: f64,
}

impl Default for Glicko2 {
    fn default() -> Glicko2 {
        Glicko2 {
            tau: 0.5,
            epsilon: 0.000_001,
            max_deviation: Rating::NEW.deviation,
        }
    }
}

/// Step 2: a rating on Glicko-2's scale.
#[derive(Debug, Clone, Copy)]
struct Internal {
    mu: f64,
    phi: f64,
}

impl Internal {
    fn of(r: Rating) -> Internal {
        Internal {
            mu: (r.rating - 1500.0) / SCALE,
            phi: r.deviation / SCALE,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, opponent: Internal) -> f64 {
    1.0 / (1.0 + (-g(opponent.phi) * (mu - opponent.mu)).exp())
}

impl Glicko2 {
    /// The player's rating after one rating period with these results
    /// (each against the opponent's rating before the period). With no
    /// results, only the deviation grows (step 6).
    pub fn rate(&self, player: Rating, results: &[(Rating, Result)]) -> Rating {
        let me = Internal::of(player);
        if results.is_empty() {
            let phi = (me.phi * me.phi + player.volatility * player.volatility).sqrt();
            return Rating {
                deviation: self.capped(phi * SCALE),
                ..player
            };
        }
        // Steps 3 and 4: the estimated variance and improvement.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, result) in results {
            let them = Internal::of(*opponent);
            let e = expected(me.mu, them);
            let gj = g(them.phi);
            inverse_v += gj * gj * e * (1.0 - e);
            sum += gj * (result.score() - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = self.volatility(me.phi, player.volatility, v, delta);
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (me.phi * me.phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = me.mu + phi * phi * sum;
        // Step 8: back to the familiar scale.
        Rating {
            rating: SCALE * mu + 1500.0,
            deviation: self.capped(SCALE * phi),
            volatility: sigma,
        }
    }

    fn capped(&self, deviation: f64) -> f64 {
        deviation.min(self.max_deviation)
    }

    /// Step 5, the Illinois algorithm of the paper.
    fn volatility(&self, phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        // The paper's loop converges in a few steps; the bound only guards
        // against a non-finite input looping for ever.
        for _ in 0..100 {
            if (big_b - big_a).abs() <= self.epsilon {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        (big_a / 2.0).exp()
    }
}
