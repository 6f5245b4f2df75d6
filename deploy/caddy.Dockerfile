# Caddy as an unprivileged user (the official image runs as root); compose.yaml lets it bind ports 80
# and 443 in its own network namespace.
FROM caddy:2.8
RUN addgroup -S -g 1000 caddy && adduser -S -D -H -u 1000 -G caddy caddy && chown -R caddy:caddy /data /config
USER caddy
