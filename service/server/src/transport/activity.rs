//! Which connections are idle: the calls open on each one.
//!
//! A call is open from the moment its request reaches the service until its response body is
//! dropped, so a stream that is still sending counts however long it runs, and a call whose
//! client reset it stops counting when hyper drops it. A connection with no open call for the
//! idle timeout gets GOAWAY; hyper's own idea of idleness (no frame for a while) would keep a
//! connection whose client only answers pings.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::Frame;
use tokio::sync::Notify;
use tokio::time::Instant;
use tonic::Status;
use tonic::body::Body;
use tonic::codegen::http::{Request, Response};
use tonic::codegen::{Bytes, Service};

/// The open calls of one connection and when the last one ended.
#[derive(Debug)]
pub struct Activity {
    open: AtomicUsize,
    /// Milliseconds from `started` to the end of the latest call (0: none has ended).
    last_end: AtomicU64,
    started: Instant,
    /// Told whenever the last open call ends.
    quiet: Notify,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            open: AtomicUsize::new(0),
            last_end: AtomicU64::new(0),
            started: Instant::now(),
            quiet: Notify::new(),
        })
    }

    fn begin(self: &Arc<Self>) -> CallGuard {
        self.open.fetch_add(1, Ordering::AcqRel);
        CallGuard(Arc::clone(self))
    }

    pub fn open_calls(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }

    /// Resolves once no call has been open for `timeout`, counting from the start of the
    /// connection or the end of its latest call.
    pub async fn idle_for(&self, timeout: Duration) {
        loop {
            // Taken before looking, so an end between the look and the wait is not missed.
            let quiet = self.quiet.notified();
            if self.open_calls() > 0 {
                quiet.await;
                continue;
            }
            let ended = self.last_end.load(Ordering::Acquire);
            tokio::time::sleep_until(self.started + Duration::from_millis(ended) + timeout).await;
            if self.open_calls() == 0 && self.last_end.load(Ordering::Acquire) == ended {
                return;
            }
        }
    }
}

/// One open call; it ends when this is dropped.
#[derive(Debug)]
struct CallGuard(Arc<Activity>);

impl Drop for CallGuard {
    fn drop(&mut self) {
        let activity = &self.0;
        // At least 1, so a call that ended in the connection's first millisecond still counts
        // as an end.
        let now = (activity.started.elapsed().as_millis() as u64).max(1);
        activity.last_end.fetch_max(now, Ordering::AcqRel);
        if activity.open.fetch_sub(1, Ordering::AcqRel) == 1 {
            activity.quiet.notify_one();
        }
    }
}

/// Counts every call through it as open until its response body is dropped.
#[derive(Clone, Debug)]
pub struct Tracked<S> {
    inner: S,
    activity: Arc<Activity>,
}

impl<S> Tracked<S> {
    pub fn new(inner: S, activity: Arc<Activity>) -> Self {
        Self { inner, activity }
    }
}

impl<S, B> Service<Request<B>> for Tracked<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
    S::Future: Send + 'static,
{
    type Response = Response<TrackedBody>;
    type Error = S::Error;
    type Future = tonic::codegen::BoxFuture<Self::Response, S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let guard = self.activity.begin();
        let answer = self.inner.call(request);
        Box::pin(async move {
            let response = answer.await?;
            Ok(response.map(|inner| TrackedBody {
                inner,
                _guard: guard,
            }))
        })
    }
}

/// A response body that keeps its call open while it lives.
#[derive(Debug)]
pub struct TrackedBody {
    inner: Body,
    _guard: CallGuard,
}

impl http_body::Body for TrackedBody {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Polls `future` once: whether it has resolved.
    fn resolved(future: &mut Pin<Box<impl Future<Output = ()>>>) -> bool {
        let waker = std::task::Waker::noop();
        future
            .as_mut()
            .poll(&mut Context::from_waker(waker))
            .is_ready()
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_without_calls_is_idle_after_the_timeout() {
        let activity = Activity::new();
        let mut idle = Box::pin(async move { activity.idle_for(Duration::from_secs(10)).await });
        assert!(!resolved(&mut idle));
        tokio::time::advance(Duration::from_secs(9)).await;
        assert!(!resolved(&mut idle));
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(resolved(&mut idle));
    }

    #[tokio::test(start_paused = true)]
    async fn an_open_call_keeps_a_connection_busy_and_idleness_counts_from_its_end() {
        let activity = Activity::new();
        let call = activity.begin();
        let waiting = Arc::clone(&activity);
        let mut idle = Box::pin(async move { waiting.idle_for(Duration::from_secs(10)).await });
        tokio::time::advance(Duration::from_secs(60)).await;
        assert!(!resolved(&mut idle), "a call is open");
        assert_eq!(activity.open_calls(), 1);

        drop(call);
        assert_eq!(activity.open_calls(), 0);
        tokio::time::advance(Duration::from_secs(9)).await;
        assert!(!resolved(&mut idle), "9 s after the call ended");

        // A short call in between starts the count again.
        drop(activity.begin());
        tokio::time::advance(Duration::from_secs(9)).await;
        assert!(!resolved(&mut idle), "9 s after the second call ended");
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(resolved(&mut idle));
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_ends_when_its_response_body_is_dropped() {
        let activity = Activity::new();
        let mut service = Tracked::new(Answer, Arc::clone(&activity));
        let response = service.call(Request::new(())).await.unwrap();
        assert_eq!(activity.open_calls(), 1, "the body is still being sent");
        drop(response);
        assert_eq!(activity.open_calls(), 0);

        let pending = service.call(Request::new(()));
        assert_eq!(activity.open_calls(), 1, "counted before it answers");
        drop(pending);
        assert_eq!(
            activity.open_calls(),
            0,
            "a call dropped unanswered ends too"
        );
    }

    /// Answers every request with an empty body.
    #[derive(Clone)]
    struct Answer;

    impl Service<Request<()>> for Answer {
        type Response = Response<Body>;
        type Error = std::convert::Infallible;
        type Future = std::future::Ready<Result<Response<Body>, Self::Error>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _: Request<()>) -> Self::Future {
            std::future::ready(Ok(Response::new(Body::default())))
        }
    }
}
