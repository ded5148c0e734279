package load

import "bytes"

// xmlText returns the text of doc's first <tag> element ("" when none),
// XML's five entities unescaped: enough for S3's flat answers (UploadId,
// Code), without a parser.
func xmlText(doc []byte, tag string) string {
	open := make([]byte, 0, len(tag)+3)
	open = append(append(append(open, '<'), tag...), '>')
	i := bytes.Index(doc, open)
	if i < 0 {
		return ""
	}
	rest := doc[i+len(open):]
	j := bytes.IndexByte(rest, '<')
	if j < 0 {
		return ""
	}
	return unescapeXML(string(rest[:j]))
}

// unescapeXML replaces XML's five predefined entities.
func unescapeXML(s string) string {
	if !bytes.ContainsRune([]byte(s), '&') {
		return s
	}
	r := bytes.NewBuffer(nil)
	for i := 0; i < len(s); i++ {
		if s[i] == '&' {
			matched := false
			for _, e := range xmlEntities {
				if len(s)-i >= len(e[0]) && s[i:i+len(e[0])] == e[0] {
					r.WriteString(e[1])
					i += len(e[0]) - 1
					matched = true
					break
				}
			}
			if matched {
				continue
			}
		}
		r.WriteByte(s[i])
	}
	return r.String()
}

var xmlEntities = [...][2]string{{"&quot;", `"`}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&apos;", "'"}}

// s3ErrorCode returns the <Code> of an S3 error document ("" when body is
// none): SlowDown, InternalError, SignatureDoesNotMatch, NoSuchBucket...
// Only letters and digits are kept, so that a counter's name stays one word.
func s3ErrorCode(body []byte) string {
	if !bytes.Contains(body, []byte("<Error>")) {
		return ""
	}
	code := xmlText(body, "Code")
	for i := range len(code) {
		if c := code[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') || i >= 64 {
			return ""
		}
	}
	return code
}

// s3Hints say what to fix for the S3 error codes a misconfigured workload
// gets.
var s3Hints = map[string]string{
	"SignatureDoesNotMatch": "the secret key is not the access key's (Swift's tempauth: the user's key), or the access key is unknown " +
		"(Swift's tempauth: account:user, with the user in [filter:tempauth]), or a proxy between changed the request",
	"MethodNotAllowed": "the server took the request for another resource: virtual-host-style buckets need the server to know " +
		"its domain (s3api's storage_domain), else give --path-style (a workload's path_style)",
	"InvalidAccessKeyId": "the server does not know the access key (Swift's tempauth: account:user, with the user in [filter:tempauth])",
	"AuthorizationHeaderMalformed": "the region signed for is not the endpoint's: give it (--region, or s3api's location in Swift; " +
		"default " + DefaultRegion + ")",
	"AccessDenied":              "the credentials are refused this request: check the user's rights (Swift: an admin of the account, .admin in tempauth)",
	"NoSuchBucket":              "the bucket is missing: a run that writes creates it, a read-only one needs its initial objects (--initial upload)",
	"NotImplemented":            "the server lacks this request (Swift 2.30's s3api has no aws-chunked uploads; multipart needs slo after s3api in the pipeline)",
	"RequestTimeTooSkewed":      "this machine's clock differs from the server's by more than 15 minutes",
	"SlowDown":                  "the server sheds load (Swift: 503s, a ratelimit or too few workers)",
	"InvalidBucketName":         "the bucket name is not DNS-compliant: container_base must make names of 3 to 63 letters, digits and '-' (s3api's dns_compliant_bucket_names)",
	"EntityTooSmall":            "the server's least part size is above the scenario's: segment_size must be at least its minimum",
	"MalformedXML":              "the server refused the multipart completion document",
	"XAmzContentSHA256Mismatch": "the body differs from its signed SHA-256: a proxy between changed it",
}

// S3NotS3 says what to check when an S3 request's failure names no S3
// error code: the endpoint did not answer as S3 does.
const S3NotS3 = ": the answer names no S3 error code, so the endpoint may not speak S3: with Swift, put s3api in the proxy's " +
	"pipeline (after cache, before tempauth) and set it up before the sweep's prefill"

// S3Hint returns a sentence saying what to fix for an S3 error code, as
// ": ..." to follow the code, or "" when there is none to say.
func S3Hint(code string) string {
	if h, ok := s3Hints[code]; ok {
		return ": " + h
	}
	return ""
}
