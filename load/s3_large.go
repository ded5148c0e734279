package load

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"

	"benchbed/plan/scenario"
)

// S3MinPart is the least size of a multipart upload's parts but the last
// (S3's limit, which s3api and most servers keep).
const S3MinPart = 5 << 20

// S3PartSize is the part size of a scenario's large objects on S3: its
// segment_size, at least S3MinPart.
func S3PartSize(s *scenario.Scenario) int64 { return max(s.SegmentSize, S3MinPart) }

// putLarge uploads container/obj as an S3 multipart upload, the
// counterpart of Swift's SLO: initiated, its parts (each the generated
// content at its offset, S3PartSize long) one after another, then
// completed with their ETags; aborted when a step fails. The outcome is
// the whole object's: first byte of the initiation, last byte of the
// completion, the first failure's status and code. hdr (Swift's
// X-Delete-After) is not sent: S3 has no such header.
func (a *s3API) putLarge(do doer, s *scenario.Scenario, container, obj string, size int64, _ http.Header) Outcome {
	var doc limitedBuffer
	first := do(&Request{Method: http.MethodPost, Container: container, Object: obj, Query: "uploads", Sink: &doc})
	if !first.OK() {
		return first
	}
	id := xmlText(doc.b, "UploadId")
	if id == "" {
		first.Code = "MalformedInitiateMultipartUploadResult"
		return first
	}
	upload := "uploadId=" + url.QueryEscape(id)
	part := S3PartSize(s)
	n := scenario.Segments(size, part)
	etags := make([]string, 0, n)
	retries := first.Retries
	fail := func(o Outcome) Outcome {
		do(&Request{Method: http.MethodDelete, Container: container, Object: obj, Query: upload})
		o.FirstByte, o.Retries = first.FirstByte, retries
		return o
	}
	var reply Reply
	for i := range n {
		o := do(&Request{Method: http.MethodPut, Container: container, Object: obj, Offset: i * part,
			Size: min(part, size-i*part), Query: "partNumber=" + strconv.FormatInt(i+1, 10) + "&" + upload, Reply: &reply})
		retries += o.Retries
		if !o.OK() {
			return fail(o)
		}
		etags = append(etags, reply.ETag)
	}
	doc.b = doc.b[:0]
	o := do(&Request{Method: http.MethodPost, Container: container, Object: obj, Query: upload,
		Body: completeBody(etags), Sink: &doc})
	retries += o.Retries
	if o.OK() && bytes.Contains(doc.b, []byte("<Error>")) { // S3 may fail a completion after its 200
		o.Code = s3ErrorCode(doc.b)
	}
	if !o.OK() {
		return fail(o)
	}
	o.FirstByte, o.Retries = first.FirstByte, retries
	return o
}

// completeBody is a CompleteMultipartUpload document for parts 1.. with etags.
func completeBody(etags []string) []byte {
	b := make([]byte, 0, 64+len(etags)*80)
	b = append(b, "<CompleteMultipartUpload>"...)
	for i, e := range etags {
		b = append(b, "<Part><PartNumber>"...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, "</PartNumber><ETag>"...)
		b = appendXMLEscaped(b, e)
		b = append(b, "</ETag></Part>"...)
	}
	return append(b, "</CompleteMultipartUpload>"...)
}

// appendXMLEscaped appends s with XML's special characters escaped.
func appendXMLEscaped(b []byte, s string) []byte {
	for i := range len(s) {
		switch c := s[i]; c {
		case '"':
			b = append(b, "&quot;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// deleteLarge deletes a multipart upload's object: one DELETE, as any
// object's (the server deletes its parts).
func (a *s3API) deleteLarge(do doer, _ *scenario.Scenario, container, obj string) Outcome {
	return do(&Request{Method: http.MethodDelete, Container: container, Object: obj})
}

// containerPuts: the scenario's buckets (no segment containers: parts are
// the server's), created with its policy as X-Storage-Policy (s3api
// passes it on to Swift). A bucket already ours is there.
func (a *s3API) containerPuts(s *scenario.Scenario) ([]Request, func(Outcome) bool) {
	var h http.Header
	if s.Policy != "" {
		h = http.Header{"X-Storage-Policy": {s.Policy}}
	}
	reqs := make([]Request, 0, s.ContainerCount)
	for i := range s.ContainerCount {
		reqs = append(reqs, Request{Method: http.MethodPut, Container: s.ContainerName(i), Header: h})
	}
	return reqs, bucketThere
}

// bucketThere reports whether a bucket PUT failed because the bucket is
// already there (ours: AWS says BucketAlreadyOwnedByYou; s3api and
// gofakes3 may say BucketAlreadyExists).
func bucketThere(o Outcome) bool {
	return o.Status == http.StatusConflict && (o.Code == "BucketAlreadyOwnedByYou" || o.Code == "BucketAlreadyExists")
}
