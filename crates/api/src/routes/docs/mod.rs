//! `/openapi.json` (and Swagger UI at `/docs`, registered in `app`).

pub mod openapi;
