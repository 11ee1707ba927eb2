# The api server. Build: docker build -t cardgames-api .
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p api

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/cardgames --create-home cardgames
COPY --from=build /src/target/release/api /usr/local/bin/cardgames-api
USER cardgames
WORKDIR /var/lib/cardgames
ENV BIND=0.0.0.0 PORT=8080 DATA_DIR=/var/lib/cardgames/data
EXPOSE 8080
CMD ["cardgames-api"]
