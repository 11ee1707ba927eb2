//! The address guard: where the server may connect. One rule
//! ([`address_refusal`]: globally reachable unicast only, unless
//! `WEBHOOK_ALLOW_PRIVATE`), applied at registration to the URL as written
//! ([`check_url`]) and at every send to each address the host resolves to
//! ([`resolve`]), so a name cannot point the server at loopback, private
//! or link-local targets (server-side request forgery, DNS rebinding).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use crate::games::error::ServiceError;

/// The longest URL an endpoint may have.
pub const MAX_URL_LEN: usize = 2048;

/// IPv4 ranges the server never calls by default: (network, prefix length,
/// what it is). Everything not globally reachable unicast (RFC 6890 and the
/// IANA special-purpose registry).
const V4_REFUSED: &[([u8; 4], u8, &str)] = &[
    ([0, 0, 0, 0], 8, "\"this network\""),
    ([10, 0, 0, 0], 8, "private"),
    ([100, 64, 0, 0], 10, "CGNAT shared"),
    ([127, 0, 0, 0], 8, "loopback"),
    ([169, 254, 0, 0], 16, "link-local"),
    ([172, 16, 0, 0], 12, "private"),
    ([192, 0, 0, 0], 24, "IETF protocol assignments"),
    ([192, 0, 2, 0], 24, "documentation"),
    ([192, 88, 99, 0], 24, "6to4 relay anycast"),
    ([192, 168, 0, 0], 16, "private"),
    ([198, 18, 0, 0], 15, "benchmarking"),
    ([198, 51, 100, 0], 24, "documentation"),
    ([203, 0, 113, 0], 24, "documentation"),
    ([224, 0, 0, 0], 4, "multicast"),
    // 255.255.255.255 (broadcast) included.
    ([240, 0, 0, 0], 4, "reserved"),
];

/// IPv6 ranges refused inside 2000::/3 (everything outside it is refused
/// already: unspecified, loopback, discard-only 100::/64, NAT64 local-use
/// 64:ff9b:1::/48, unique-local, site-local, link-local, multicast, SRv6,
/// unassigned).
const V6_REFUSED: &[(u128, u8, &str)] = &[
    (0x2001_0002 << 96, 48, "benchmarking"),
    // Teredo (2001::/32) is decided by its IPv4 addresses before this.
    (0x2001_0000 << 96, 23, "IETF protocol assignments"),
    (0x2001_0db8 << 96, 32, "documentation"),
    (0x3fff_0000 << 96, 20, "documentation"),
];

fn v4_in(ip: std::net::Ipv4Addr, net: [u8; 4], len: u8) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
    u32::from(ip) & mask == u32::from_be_bytes(net) & mask
}

fn v6_in(bits: u128, net: u128, len: u8) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
    bits & mask == net & mask
}

/// The IPv4 addresses an IPv6 address stands for, when it is one of the
/// forms that carry them: IPv4-mapped `::ffff:0:0/96`, IPv4-compatible
/// `::/96` (`::` and `::1` included: 0.0.0.0 and 0.0.0.1), IPv4-translated
/// `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16` (the relay's
/// v4 in bits 16..48) and Teredo `2001::/32` (the server's v4 and the
/// client's, stored inverted).
fn embedded_v4(ip: std::net::Ipv6Addr) -> Option<Vec<std::net::Ipv4Addr>> {
    let bits = u128::from(ip);
    let low = std::net::Ipv4Addr::from(bits as u32);
    if v6_in(bits, 0xffff << 32, 96)
        || v6_in(bits, 0, 96)
        || v6_in(bits, 0xffff << 48, 96)
        || v6_in(bits, 0x0064_ff9b << 96, 96)
    {
        return Some(vec![low]);
    }
    if v6_in(bits, 0x2002 << 112, 16) {
        return Some(vec![std::net::Ipv4Addr::from((bits >> 80) as u32)]);
    }
    if v6_in(bits, 0x2001_0000 << 96, 32) {
        let server = std::net::Ipv4Addr::from((bits >> 64) as u32);
        return Some(vec![server, std::net::Ipv4Addr::from(!(bits as u32))]);
    }
    None
}

/// Why the server may not connect to `ip` by default (without
/// `WEBHOOK_ALLOW_PRIVATE`), or `None` when it may: the one rule for
/// registration and for every address a send connects to. Allowed is
/// globally reachable unicast only: IPv4 outside [`V4_REFUSED`]; IPv6
/// in 2000::/3 outside [`V6_REFUSED`]; an IPv6 form that carries IPv4
/// addresses ([`embedded_v4`]) is decided by those, by the IPv4 rule.
pub fn address_refusal(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => V4_REFUSED
            .iter()
            .find(|(net, len, _)| v4_in(v4, *net, *len))
            .map(|(_, _, what)| *what),
        IpAddr::V6(v6) => {
            if let Some(v4s) = embedded_v4(v6) {
                return v4s
                    .into_iter()
                    .find_map(|v4| address_refusal(IpAddr::V4(v4)));
            }
            let bits = u128::from(v6);
            if !v6_in(bits, 0x2000 << 112, 3) {
                return Some(match bits >> 120 {
                    0xff => "multicast",
                    0xfe if bits >> 118 & 0b11 == 0b10 => "link-local",
                    0xfe if bits >> 118 & 0b11 == 0b11 => "site-local",
                    0xfc | 0xfd => "unique-local",
                    _ => "not global unicast",
                });
            }
            V6_REFUSED
                .iter()
                .find(|(net, len, _)| v6_in(bits, *net, *len))
                .map(|(_, _, what)| *what)
        }
    }
}

/// Whether the server may connect to `ip` by default ([`address_refusal`]).
pub fn may_connect(ip: IpAddr) -> bool {
    address_refusal(ip).is_none()
}

/// The address a URL's host names literally (`1.2.3.4`, `[::1]`), if it does.
pub(super) fn literal_ip(host: &str) -> Option<IpAddr> {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
        .parse()
        .ok()
}

/// Why a URL is refused at registration (a 422), if it is.
pub(super) fn check_url(url: &str, allow_private: bool) -> Result<reqwest::Url, ServiceError> {
    let bad = |why: &str| ServiceError::invalid("invalid_webhook_url", why.to_owned());
    if url.len() > MAX_URL_LEN {
        return Err(bad("the URL is longer than 2048 bytes"));
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| bad(&format!("not a URL: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad("only http and https URLs are allowed"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(bad("a URL with credentials is not allowed"));
    }
    if parsed.fragment().is_some() {
        return Err(bad("a URL with a fragment is not allowed"));
    }
    let refused = || {
        ServiceError::invalid(
            "webhook_address_refused",
            "the URL's host is a loopback, private or link-local address, which this server does not call",
        )
    };
    let host = parsed
        .host_str()
        .ok_or_else(|| bad("the URL has no host"))?;
    let lower = host.to_ascii_lowercase();
    let named_local = lower == "localhost" || lower.ends_with(".localhost");
    if !allow_private && (named_local || literal_ip(host).is_some_and(|ip| !may_connect(ip))) {
        return Err(refused());
    }
    Ok(parsed)
}

/// How a host name becomes addresses when a delivery is sent: the
/// system's resolver ([`system_lookup`]); tests substitute their own (no
/// DNS leaves the machine).
pub type Lookup = Arc<
    dyn Fn(
            String,
            u16,
        ) -> futures_util::future::BoxFuture<'static, std::io::Result<Vec<SocketAddr>>>
        + Send
        + Sync,
>;

/// The system's resolver (`getaddrinfo`, on tokio's blocking pool).
pub fn system_lookup() -> Lookup {
    Arc::new(|host, port| {
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host.as_str(), port))
                .await?
                .collect())
        })
    })
}

/// A resolver of fixed answers, the tests' substitute (no DNS leaves the
/// machine).
#[cfg(test)]
pub(super) fn fixed_lookup(answers: Vec<SocketAddr>) -> Lookup {
    Arc::new(move |_host, _port| {
        let answers = answers.clone();
        Box::pin(async move { Ok(answers) })
    })
}

/// Where a delivery may connect: the URL's host resolved now by `lookup`,
/// every address checked by [`address_refusal`] (a name that resolves to
/// any refused address is refused). `Err(true)`: refused (never retried);
/// `Err(false)`: not resolvable now (retried).
pub(super) async fn resolve(
    url: &reqwest::Url,
    allow_private: bool,
    lookup: &Lookup,
) -> Result<Vec<SocketAddr>, (bool, String)> {
    let port = url
        .port_or_known_default()
        .ok_or((true, "no port".to_owned()))?;
    let host = url.host_str().ok_or((true, "no host".to_owned()))?;
    let addrs: Vec<SocketAddr> = match literal_ip(host) {
        Some(ip) => vec![SocketAddr::new(ip, port)],
        None => lookup(host.to_owned(), port)
            .await
            .map_err(|e| (false, format!("could not resolve {host}: {e}")))?,
    };
    if addrs.is_empty() {
        return Err((false, "the host resolved to no address".to_owned()));
    }
    if !allow_private
        && let Some((bad, why)) = addrs
            .iter()
            .find_map(|a| Some((a.ip(), address_refusal(a.ip())?)))
    {
        return Err((true, format!("address refused: {bad} ({why})")));
    }
    Ok(addrs)
}

/// A resolver that resolves nothing: the client of a delivery connects to
/// the addresses [`resolve`] checked (pinned) and never looks a name up on
/// its own, so DNS answering differently a moment later cannot redirect it.
pub(super) struct NoLookup;

impl reqwest::dns::Resolve for NoLookup {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let name = name.as_str().to_owned();
        Box::pin(async move {
            Err(format!("{name}: not among the addresses checked for this delivery").into())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one address rule, range by range: (address, why refused;
    /// `None`: may connect).
    #[test]
    fn the_address_rule_refuses_every_special_range() {
        let table: &[(&str, Option<&str>)] = &[
            // IPv4.
            ("0.0.0.0", Some("\"this network\"")),
            ("0.255.255.255", Some("\"this network\"")),
            ("10.0.0.1", Some("private")),
            ("10.255.255.255", Some("private")),
            ("100.64.0.1", Some("CGNAT shared")),
            ("100.127.255.255", Some("CGNAT shared")),
            ("127.0.0.1", Some("loopback")),
            ("127.255.0.9", Some("loopback")),
            ("169.254.169.254", Some("link-local")),
            ("172.16.0.1", Some("private")),
            ("172.31.255.255", Some("private")),
            ("192.0.0.8", Some("IETF protocol assignments")),
            ("192.0.2.1", Some("documentation")),
            ("192.88.99.1", Some("6to4 relay anycast")),
            ("192.168.1.1", Some("private")),
            ("198.18.0.1", Some("benchmarking")),
            ("198.19.255.255", Some("benchmarking")),
            ("198.51.100.7", Some("documentation")),
            ("203.0.113.9", Some("documentation")),
            ("224.0.0.1", Some("multicast")),
            ("239.255.255.250", Some("multicast")),
            ("240.0.0.1", Some("reserved")),
            ("255.255.255.255", Some("reserved")),
            // Just outside those ranges: public.
            ("1.1.1.1", None),
            ("8.8.8.8", None),
            ("9.255.255.255", None),
            ("11.0.0.0", None),
            ("100.63.255.255", None),
            ("100.128.0.1", None),
            ("126.255.255.255", None),
            ("128.0.0.1", None),
            ("169.253.255.255", None),
            ("172.15.255.255", None),
            ("172.32.0.0", None),
            ("192.0.1.1", None),
            ("192.0.3.1", None),
            ("192.167.255.255", None),
            ("192.169.0.0", None),
            ("198.17.255.255", None),
            ("198.20.0.0", None),
            ("223.255.255.255", None),
            // IPv6, not global unicast.
            ("::", Some("\"this network\"")),
            ("::1", Some("\"this network\"")),
            ("100::1", Some("not global unicast")),
            ("64:ff9b:1::a00:1", Some("not global unicast")),
            ("64:ff9b:1::808:808", Some("not global unicast")),
            ("fc00::1", Some("unique-local")),
            ("fd12:3456::1", Some("unique-local")),
            ("fe80::1", Some("link-local")),
            ("febf::1", Some("link-local")),
            ("fec0::1", Some("site-local")),
            ("ff02::1", Some("multicast")),
            ("ff0e::1", Some("multicast")),
            ("5f00::1", Some("not global unicast")),
            ("4000::1", Some("not global unicast")),
            // IPv6 special ranges inside 2000::/3.
            ("2001:db8::1", Some("documentation")),
            ("3fff::1", Some("documentation")),
            ("3fff:fff:ffff::1", Some("documentation")),
            ("2001:2::1", Some("benchmarking")),
            ("2001:10::1", Some("IETF protocol assignments")),
            ("2001:1ff::1", Some("IETF protocol assignments")),
            // IPv4 carried in IPv6: decided by the IPv4 rule.
            ("::ffff:127.0.0.1", Some("loopback")),
            ("::ffff:10.0.0.1", Some("private")),
            ("::ffff:169.254.169.254", Some("link-local")),
            ("::ffff:8.8.8.8", None),
            ("::127.0.0.1", Some("loopback")),
            ("::10.1.2.3", Some("private")),
            ("::8.8.8.8", None),
            ("::ffff:0:a9fe:a9fe", Some("link-local")),
            ("::ffff:0:7f00:1", Some("loopback")),
            ("::ffff:0:808:808", None),
            ("64:ff9b::a9fe:a9fe", Some("link-local")),
            ("64:ff9b::a00:1", Some("private")),
            ("64:ff9b::808:808", None),
            ("2002:a9fe:a9fe::", Some("link-local")),
            ("2002:7f00:1::1", Some("loopback")),
            ("2002:c000:204::1", Some("documentation")),
            ("2002:808:808::1", None),
            // Teredo: server 65.54.227.120, client 192.0.2.45 inverted.
            (
                "2001:0:4136:e378:8000:63bf:3fff:fdd2",
                Some("documentation"),
            ),
            // Server 10.0.0.1: refused whatever the client.
            ("2001:0:a00:1::f7f7:f7f7", Some("private")),
            // Server 8.8.8.8, client 1.1.1.1 (fefe:fefe inverted).
            ("2001:0:808:808::fefe:fefe", None),
            // Client 127.0.0.1 (80ff:fffe inverted).
            ("2001:0:808:808::80ff:fffe", Some("loopback")),
            // Public IPv6.
            ("2606:4700:4700::1111", None),
            ("2001:4860:4860::8888", None),
            ("2a00:1450::1", None),
            ("2001:200::1", None),
            ("3ffe::1", None),
            ("3fff:1000::1", None),
        ];
        for (ip, why) in table {
            let addr: IpAddr = ip.parse().unwrap();
            assert_eq!(address_refusal(addr), *why, "{ip}");
            assert_eq!(may_connect(addr), why.is_none(), "{ip}");
        }
    }

    #[test]
    fn registration_refuses_what_is_clearly_bad() {
        let code = |url: &str, allow: bool| match check_url(url, allow) {
            Ok(_) => "ok",
            Err(ServiceError::Invalid(r)) => r.code,
            Err(_) => "other",
        };
        assert_eq!(code("https://example.com/hook", false), "ok");
        assert_eq!(code("ftp://example.com/hook", false), "invalid_webhook_url");
        assert_eq!(code("not a url", false), "invalid_webhook_url");
        assert_eq!(
            code("https://u:p@example.com/", false),
            "invalid_webhook_url"
        );
        assert_eq!(
            code("http://127.0.0.1:9/", false),
            "webhook_address_refused"
        );
        assert_eq!(code("http://[::1]:9/", false), "webhook_address_refused");
        assert_eq!(
            code("http://localhost:9/", false),
            "webhook_address_refused"
        );
        assert_eq!(
            code("http://169.254.169.254/", false),
            "webhook_address_refused"
        );
        // IPv4 in IPv6 forms (translated, 6to4, NAT64, mapped) and
        // documentation ranges: the same rule as at send time.
        for url in [
            "http://[::ffff:0:a9fe:a9fe]/",
            "http://[2002:a9fe:a9fe::]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://[::ffff:169.254.169.254]/",
            "http://[fe80::1]/",
            "http://[3fff::1]/",
            "http://192.0.2.1/",
            "http://0x7f.1/",
        ] {
            assert_eq!(code(url, false), "webhook_address_refused", "{url}");
            assert_eq!(code(url, true), "ok", "{url}");
        }
        assert_eq!(code("http://1.1.1.1/", false), "ok");
        assert_eq!(code("http://[2606:4700:4700::1111]/", false), "ok");
        assert_eq!(code("http://127.0.0.1:9/", true), "ok");
    }

    /// At send time the name's addresses are checked as resolved: one
    /// refused address among public ones refuses the send, whatever the
    /// name looked like at registration (DNS rebinding).
    #[tokio::test]
    async fn the_resolved_addresses_are_checked_at_send_time() {
        let url = reqwest::Url::parse("https://hooks.example/x").unwrap();
        let public: SocketAddr = "1.1.1.1:443".parse().unwrap();
        let metadata: SocketAddr = "[::ffff:0:a9fe:a9fe]:443".parse().unwrap();
        let ok = resolve(&url, false, &fixed_lookup(vec![public])).await;
        assert_eq!(ok, Ok(vec![public]));
        let rebound = resolve(&url, false, &fixed_lookup(vec![public, metadata])).await;
        assert_eq!(
            rebound,
            Err((
                true,
                "address refused: ::ffff:0:a9fe:a9fe (link-local)".to_owned()
            ))
        );
        let allowed = resolve(&url, true, &fixed_lookup(vec![metadata])).await;
        assert_eq!(allowed, Ok(vec![metadata]));
        let none = resolve(&url, false, &fixed_lookup(vec![])).await;
        assert!(matches!(none, Err((false, _))), "{none:?}");
        // An IP literal is checked as it is, never looked up.
        let literal = reqwest::Url::parse("http://[2002:a9fe:a9fe::]:8080/").unwrap();
        let refused = resolve(&literal, false, &fixed_lookup(vec![public])).await;
        assert!(matches!(refused, Err((true, _))), "{refused:?}");
    }
}
