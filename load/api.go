package load

import (
	"context"
	"net/http"
	"net/url"

	"benchbed/plan/scenario"
)

// API is the object-storage API a Client speaks: what differs between
// Swift's API and S3 on the wire. The engine, its sessions, events,
// histograms and verified reads are the same for every API; they call
// these methods where a request is addressed and authenticated, where a
// large object is written or deleted, where containers are made, and
// where a failed answer is named. A Client's nil API is Swift's, through
// its Auth.
type API interface {
	// target returns the base URL requests go to and the token they
	// carry ("" when none), authenticating if needed.
	target(ctx context.Context) (base, token string, err error)
	// refused forgets a token the server answered 401 to.
	refused(token string)
	// appendHead appends r's request line and headers for the base URL u
	// to b (a session writes them itself on its connection).
	appendHead(b []byte, u *url.URL, token string, r *Request) ([]byte, error)
	// newRequest returns r as a net/http request (what is not plain http).
	newRequest(ctx context.Context, base, token string, r *Request) (*http.Request, error)
	// putLarge and deleteLarge write and delete an object of a large size class.
	putLarge(do doer, s *scenario.Scenario, container, obj string, size int64, hdr http.Header) Outcome
	deleteLarge(do doer, s *scenario.Scenario, container, obj string) Outcome
	// containerPuts returns the requests that create the scenario's
	// containers, and the statuses besides 2xx that mean "already there".
	containerPuts(s *scenario.Scenario) ([]Request, func(Outcome) bool)
	// errorBodies reports whether a failed answer's body names its error
	// (S3's XML error documents), so that it is read for Outcome.Code.
	errorBodies() bool
}

// api returns the client's API: its API, or Swift's through its Auth.
func (c *Client) api() API {
	if c.API != nil {
		return c.API
	}
	return (*swiftAPI)(c)
}

// swiftAPI is Swift's API on a client's Auth (a pointer, so that it is an
// interface value without an allocation).
type swiftAPI Client

var _ API = (*swiftAPI)(nil)

func (a *swiftAPI) target(ctx context.Context) (string, string, error) { return a.Auth.Token(ctx) }

func (a *swiftAPI) refused(token string) { a.Auth.Invalidate(token) }

func (a *swiftAPI) appendHead(b []byte, u *url.URL, token string, r *Request) ([]byte, error) {
	return appendRequest(b, u, token, r), nil
}

func (a *swiftAPI) newRequest(ctx context.Context, base, token string, r *Request) (*http.Request, error) {
	return newSwiftRequest(ctx, base, token, r)
}

func (a *swiftAPI) putLarge(do doer, s *scenario.Scenario, container, obj string, size int64, hdr http.Header) Outcome {
	return putLarge(do, s, container, obj, size, hdr)
}

func (a *swiftAPI) deleteLarge(do doer, s *scenario.Scenario, container, obj string) Outcome {
	return deleteLarge(do, s, container, obj)
}

// containerPuts: the containers with the scenario's policy and
// container_put_headers, and their segment containers for large objects.
func (a *swiftAPI) containerPuts(s *scenario.Scenario) ([]Request, func(Outcome) bool) {
	h := http.Header{}
	for k, v := range s.ContainerPutHeaders {
		h.Set(k, v)
	}
	if s.Policy != "" {
		h.Set("X-Storage-Policy", s.Policy)
	}
	reqs := make([]Request, 0, s.ContainerCount)
	for i := range s.ContainerCount {
		reqs = append(reqs, Request{Method: http.MethodPut, Container: s.ContainerName(i), Header: h})
		if s.HasLarge() {
			reqs = append(reqs, Request{Method: http.MethodPut, Container: scenario.SegmentContainer(s.ContainerName(i)), Header: h})
		}
	}
	return reqs, func(Outcome) bool { return false }
}

func (a *swiftAPI) errorBodies() bool { return false }
