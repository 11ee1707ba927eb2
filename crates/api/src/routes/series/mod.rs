//! `/v1/series`: a series of rematches.

pub mod get_series;
