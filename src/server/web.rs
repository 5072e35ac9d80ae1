//! The browser's way in, on the gRPC port: gRPC-Web for each gRPC service, the page itself
//! (the bundle built in `web/`, compiled into the binary), and CORS for pages served elsewhere.
//!
//! gRPC-Web wraps each gRPC service, not the whole server: a [`GrpcWebLayer`] on the server
//! answers 400 to every HTTP/1.1 request that is not gRPC-Web, the page's own `GET /` among
//! them. Wrapped one by one, HTTP/2 gRPC passes through each service untouched (grpcurl, Envoy
//! and the other languages see no difference), gRPC-Web over HTTP/1.1 or HTTP/2 is translated,
//! and the page's paths are plain routes beside them.

use std::convert::Infallible;
use std::time::Duration;

use axum::routing::get;
use http::header::{self, HeaderName, HeaderValue};
use http::{Method, Request, Response};
use tonic::body::Body;
use tonic::codegen::{InterceptedService, Service};
use tonic::server::NamedService;
use tonic::service::{Interceptor, LayerExt, Routes, RoutesBuilder};
use tonic_web::GrpcWebLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::service::BUSY_METADATA;

/// The built page: what `npm run build` in `web/` writes, checked by CI against its sources.
/// Each path, its content type and its bytes.
const PAGE: [(&str, &str, &str); 3] = [
    ("/", "text/html; charset=utf-8", include_str!("../../web/dist/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../../web/dist/app.js")),
    ("/app.css", "text/css; charset=utf-8", include_str!("../../web/dist/app.css")),
];

/// How long a browser may keep a CORS preflight's answer, so a page elsewhere pays the extra
/// round trip once a day rather than once a call.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The request headers a gRPC-Web client sends (and a bearer token); a cross-origin page may
/// send only those a preflight allowed.
const ALLOWED_HEADERS: [HeaderName; 5] = [
    header::CONTENT_TYPE,
    header::AUTHORIZATION,
    HeaderName::from_static("x-grpc-web"),
    HeaderName::from_static("x-user-agent"),
    HeaderName::from_static("grpc-timeout"),
];

/// The gRPC services, collected with or without gRPC-Web, then turned into the server's routes
/// with the page.
#[derive(Debug)]
pub(super) struct Services {
    web: bool,
    routes: RoutesBuilder,
}

impl Services {
    /// No services yet; with `web`, each one added also answers gRPC-Web.
    pub(super) fn new(web: bool) -> Services {
        Services { web, routes: RoutesBuilder::default() }
    }

    /// Adds a gRPC service, wrapped in gRPC-Web when the page is on.
    pub(super) fn add<S>(self, service: S) -> Services
    where
        S: Service<Request<Body>, Response = Response<Body>, Error = Infallible>
            + NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        S::Future: Send + 'static,
    {
        self.add_guarded(service, Ok)
    }

    /// Adds a gRPC service behind `interceptor`, which sees every call, gRPC-Web ones too:
    /// it wraps the gRPC-Web translation, whose inner service must answer plain bodies.
    pub(super) fn add_guarded<S, I>(mut self, service: S, interceptor: I) -> Services
    where
        S: Service<Request<Body>, Response = Response<Body>, Error = Infallible>
            + NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        S::Future: Send + 'static,
        I: Interceptor + Clone + Send + Sync + 'static,
    {
        if self.web {
            self.routes.add_service(InterceptedService::new(GrpcWebLayer::new().named_layer(service), interceptor));
        } else {
            self.routes.add_service(InterceptedService::new(service, interceptor));
        }
        self
    }

    /// The routes to serve: the services, the page when on, and CORS for `allowed_origins`
    /// when there are any (none: no CORS headers at all, so only the page's own origin, or a
    /// client that is no browser, can call).
    pub(super) fn into_routes(self, allowed_origins: &[HeaderValue]) -> Routes {
        let mut router = self.routes.routes().into_axum_router();
        if self.web {
            for (path, content_type, body) in PAGE {
                router = router.route(path, get(move || async move { page_response(content_type, body) }));
            }
        }
        if !allowed_origins.is_empty() {
            router = router.layer(cors(allowed_origins));
        }
        Routes::from(router)
    }
}

/// One file of the page. `no-cache`: a browser revalidates, so a new server's page is never
/// mixed with an old one's script.
fn page_response(content_type: &'static str, body: &'static str) -> impl axum::response::IntoResponse {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
}

/// CORS for gRPC-Web calls from pages on `allowed_origins`: the gRPC-Web headers in, and out
/// the status and the busy hint, which a browser hides from the page unless exposed.
fn cors(allowed_origins: &[HeaderValue]) -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(allowed_origins.iter().cloned()))
        .allow_methods([Method::POST, Method::OPTIONS])
        .allow_headers(ALLOWED_HEADERS)
        .expose_headers([
            HeaderName::from_static("grpc-status"),
            HeaderName::from_static("grpc-message"),
            HeaderName::from_static(BUSY_METADATA),
        ])
        .max_age(PREFLIGHT_MAX_AGE)
}
