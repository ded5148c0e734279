package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"benchbed/load"
	"benchbed/load/prefill"
	"github.com/spf13/pflag"
)

// s3Flags are `benchbed load`'s S3 options: --api s3 and where and as whom.
type s3Flags struct {
	api     string // swift or s3
	cfg     load.S3Config
	payload string // unsigned or hashed
}

// add declares the flags on fl.
func (f *s3Flags) add(fl *pflag.FlagSet) {
	fl.StringVar(&f.api, "api", "swift", "the API spoken: swift, or s3 (with --endpoint and its keys)")
	fl.StringVar(&f.cfg.Endpoint, "endpoint", "", "S3: the endpoint URL, http://host:port (or AWS_ENDPOINT_URL)")
	fl.StringVar(&f.cfg.AccessKey, "access-key", "", "S3: the access key (or AWS_ACCESS_KEY_ID; Swift's tempauth: account:user)")
	fl.StringVar(&f.cfg.SecretKey, "secret-key", "", "S3: the secret key (or AWS_SECRET_ACCESS_KEY; never printed)")
	fl.StringVar(&f.cfg.Region, "region", "", "S3: the region signed for, s3api's location (or AWS_REGION; default "+load.DefaultRegion+")")
	fl.BoolVar(&f.cfg.PathStyle, "path-style", false, "S3: address buckets as /bucket/key (default: virtual host bucket.host)")
	fl.StringVar(&f.payload, "payload", "unsigned", "S3: the payload's signature: unsigned (UNSIGNED-PAYLOAD) or hashed (its SHA-256)")
}

// resolve fills what the flags left out from the environment and returns
// the S3 config to use (nil for Swift's API), or a usage error.
func (f *s3Flags) resolve(swiftAuth load.AuthSpec) (*load.S3Config, error) {
	switch f.api {
	case "swift":
		if f.cfg != (load.S3Config{}) || f.payload != "unsigned" {
			return nil, fmt.Errorf("--endpoint, --access-key, --secret-key, --region, --path-style and --payload are for --api s3")
		}
		return nil, nil
	case "s3":
	default:
		return nil, fmt.Errorf("--api %q: want swift or s3", f.api)
	}
	if swiftAuth != (load.AuthSpec{}) {
		return nil, fmt.Errorf("--api s3 takes --endpoint, --access-key and --secret-key, not Swift's auth flags")
	}
	c := f.cfg
	env := func(v *string, names ...string) {
		for _, n := range names {
			if *v == "" {
				*v = os.Getenv(n)
			}
		}
	}
	env(&c.Endpoint, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
	env(&c.AccessKey, "AWS_ACCESS_KEY_ID")
	env(&c.SecretKey, "AWS_SECRET_ACCESS_KEY")
	env(&c.Region, "AWS_REGION", "AWS_DEFAULT_REGION")
	switch f.payload {
	case "unsigned":
	case "hashed":
		c.SignPayload = true
	default:
		return nil, fmt.Errorf("--payload %q: want unsigned or hashed", f.payload)
	}
	if c.Endpoint == "" || c.AccessKey == "" || c.SecretKey == "" {
		return nil, fmt.Errorf("--api s3 needs --endpoint, --access-key and --secret-key (or AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
	}
	if _, err := load.NewS3(c); err != nil {
		return nil, err
	}
	return &c, nil
}

// loadStore is where `benchbed load` puts and lists the initial files: the
// client's own API (S3's buckets, or Swift's containers).
func loadStore(spec load.AuthSpec, c *load.Client, policy string) prefill.Store {
	if spec.S3 != nil {
		return &prefill.S3Store{Client: c, Policy: policy}
	}
	return &prefill.HTTPStore{HTTP: c.HTTP, Auth: c.Auth, Policy: policy}
}

// s3Hints says what to fix for the S3 error codes among the causes, as
// ". CODE: ..." sentences ("" when none has a hint).
func s3Hints(causes map[string]int64) string {
	var b []byte
	for _, k := range slices.Sorted(maps.Keys(causes)) {
		code, ok := strings.CutPrefix(k, "s3_")
		if h := load.S3Hint(code); ok && h != "" {
			b = fmt.Appendf(b, "\n%s%s", code, h)
		}
	}
	return string(b)
}
