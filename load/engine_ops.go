package load

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"benchbed/plan/scenario"
)

// maxRedraws bounds the draws of a delete that its class cannot take.
const maxRedraws = 16

// draw picks the next operation's size class and type. A delete takes its
// object at once; when the class is down to its last object (it keeps
// one, so that its reads always find something), the operation is drawn
// again, as ssbench skips a delete with nothing to delete, and after
// maxRedraws such draws it is a read.
func (u *users) draw(rng *rand.Rand) (int, string, int64) {
	o := u.objs
	if h := o.s.HeadShare; h > 0 && rng.Float64() < h {
		return pick(o.sizeCum, rng.Float64()), OpHead, 0
	}
	for range maxRedraws {
		c := pick(o.sizeCum, rng.Float64())
		op := crudOps[pick(o.classes[c].crudCum[:], rng.Float64())]
		if op != OpDelete {
			return c, op, 0
		}
		if idx, ok := o.toDelete(c, rng); ok {
			return c, op, idx
		}
	}
	return pick(o.sizeCum, rng.Float64()), OpRead, 0
}

// do runs one drawn operation (a delete's object already taken) and
// records it.
func (u *users) do(sess *Session, req *Request, op string, c int, index int64, rng *rand.Rand, at time.Time) {
	o := u.objs
	*req = Request{}
	switch op {
	case OpCreate:
		index = o.classes[c].created.reserve()
		defer o.classes[c].created.finish(index)
		req.Method, req.Size, req.Header = http.MethodPut, o.size(c, rng), deleteAfter(o.s)
	case OpUpdate:
		index = o.existing(c, rng)
		defer o.release(c, index)
		defer o.classes[c].created.updated(index)
		req.Method, req.Size, req.Header = http.MethodPut, o.size(c, rng), deleteAfter(o.s)
	case OpRead:
		index, req.Method = o.existing(c, rng), http.MethodGet
		defer o.release(c, index)
	case OpHead:
		index, req.Method = o.existing(c, rng), http.MethodHead
		defer o.release(c, index)
	case OpDelete:
		req.Method = http.MethodDelete
		if u.cfg.Rate <= 0 && u.cfg.schedule == nil { // closed loop: a wait for the object's readers is no latency
			at = time.Now()
		}
	}
	req.Container, req.Object = o.container(c, index), o.name(c, index)
	if op == OpCreate && u.fill != nil {
		b := u.fill.bucket()
		out := u.run(sess, req, c, at)
		u.fill.done(out)
		u.rec.Record(op, out)
		u.rec.RecordFill(b, out)
		return
	}
	out := u.run(sess, req, c, at)
	if op == OpDelete && out.Status == http.StatusNotFound {
		o.notDeleted(c, index) // it was not there: nothing to put back
	}
	u.rec.Record(op, out)
}

// run sends req, an operation on an object of class c, measured from at:
// as a large object's segments and manifest when c is large, and checked
// against the generated content when the run verifies reads.
func (u *users) run(sess *Session, req *Request, c int, at time.Time) Outcome {
	do := func(r *Request) Outcome { return sess.Do(r, at) }
	if req.Method == http.MethodGet && sess.check != nil {
		req.Sink = sess.check.Reset()
		return sess.check.Check(sess.Do(req, at))
	}
	return u.objs.send(sess.api, do, c, req)
}

// send runs req on an object of class c: as a large object of the API
// (Swift's segments and manifest, S3's multipart upload) when c is large,
// else as it is.
func (o *objects) send(api API, do doer, c int, req *Request) Outcome {
	if o.s.IsLarge(o.classes[c].size) {
		switch req.Method {
		case http.MethodPut:
			return api.putLarge(do, o.s, req.Container, req.Object, req.Size, req.Header)
		case http.MethodDelete:
			return api.deleteLarge(do, o.s, req.Container, req.Object)
		}
	}
	return do(req)
}

// clientDoer runs requests on c, each measured from its own start.
func clientDoer(ctx context.Context, c *Client) doer {
	return func(r *Request) Outcome { return c.Do(ctx, r, time.Now()) }
}

// deleteAfter returns the X-Delete-After header of the scenario's
// delete_after, or nil.
func deleteAfter(s *scenario.Scenario) http.Header {
	if s.DeleteAfter == nil {
		return nil
	}
	return http.Header{"X-Delete-After": {strconv.Itoa(*s.DeleteAfter)}}
}
