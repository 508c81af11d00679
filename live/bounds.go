package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"stwb/model"
)

// The bounds on talking to an endpoint. An endpoint that stalls, loops, throttles
// forever or answers garbage ends in an error within a bounded time: one call takes
// at most DefaultMaxAttempts tries of DefaultRequestTimeout each, with at most
// DefaultMaxBackoff between them (4 x 20 s + 3 x 5 s = 95 s). `--timeout` and
// `--max-attempts` change the first two (Config.Timeout, Config.MaxAttempts).
const (
	// DefaultRequestTimeout bounds one HTTP request: connecting, sending and reading
	// the whole answer. DynamoDB answers in milliseconds.
	DefaultRequestTimeout = 20 * time.Second
	// DefaultMaxAttempts is the tries of one call, the first included: the SDK's
	// standard retryer with DynamoDB's default of 4 (aws-sdk-go-v2
	// service/dynamodb resolveRetryer), retrying throttling, 5xx and timeouts.
	DefaultMaxAttempts = 4
	// DefaultMaxBackoff caps the wait between two tries (the SDK's default is 20 s).
	DefaultMaxBackoff = 5 * time.Second
	// MaxResponseBytes bounds one answer's body. The largest DynamoDB answer is a
	// BatchGetItem of 16 MB of items, somewhat more as JSON.
	MaxResponseBytes = 64 << 20
	// maxErrorBytes bounds the part of an error answer that is read and shown.
	maxErrorBytes = 64 << 10
	// maxPagesCounted bounds countItems, maxTagPages the ListTagsOfResource pages,
	// maxBatchGetRounds the BatchGetItem rounds of UnprocessedKeys: an endpoint
	// that always says "there is more" must not keep stwb looping.
	maxPagesCounted   = 1000
	maxTagPages       = 100
	maxBatchGetRounds = 100
)

// retryer is the SDK's standard retryer with the documented bounds.
func retryer(c Config) aws.Retryer {
	attempts := c.attempts()
	backoff := c.MaxBackoff
	if backoff <= 0 {
		backoff = DefaultMaxBackoff
	}
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = attempts
		o.MaxBackoff = backoff
		o.BaseDelay = 25 * time.Millisecond // DynamoDB's, as the SDK sets it
	})
}

func (c Config) attempts() int {
	if c.MaxAttempts <= 0 {
		return DefaultMaxAttempts
	}
	return c.MaxAttempts
}

func (c Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultRequestTimeout
	}
	return c.Timeout
}

// guardResponses adds a step next to the transport that bounds every answer's body
// (MaxResponseBytes) and cleans error answers before the SDK reads them: their
// credentials are redacted and their long values cut, so that an endpoint that
// echoes the request's headers puts no access key id, secret or session token into
// an error message, and a 50 MB message is not printed whole.
func guardResponses(creds aws.CredentialsProvider) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Deserialize.Add(middleware.DeserializeMiddlewareFunc("stwbGuardResponses",
			func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (
				middleware.DeserializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleDeserialize(ctx, in)
				resp, ok := out.RawResponse.(*smithyhttp.Response)
				if !ok || resp == nil || resp.Body == nil {
					return out, md, err
				}
				var secrets []string
				if creds != nil {
					if v, cerr := creds.Retrieve(ctx); cerr == nil {
						secrets = []string{v.AccessKeyID, v.SecretAccessKey, v.SessionToken}
					}
				}
				for k, vs := range resp.Header {
					for i := range vs {
						vs[i] = model.CutValue(Redact(vs[i], secrets...))
					}
					resp.Header[k] = vs
				}
				if resp.StatusCode < 300 {
					resp.Body = &cappedBody{r: resp.Body, left: MaxResponseBytes}
					return out, md, err
				}
				body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
				resp.Body.Close()
				clean := cleanErrorBody(body, secrets)
				if resp.Header.Get("X-Amz-Crc32") != "" {
					// DynamoDB's checksum of the body (the SDK checks it on close) is
					// of the body as cleaned now.
					resp.Header.Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE(clean)), 10))
				}
				resp.Body = io.NopCloser(bytes.NewReader(clean))
				return out, md, err
			}), middleware.After)
	}
}

// explainTimeouts adds to a call's error, when it ended because the endpoint did
// not answer in time (and not because the caller gave up), what the bound was and
// which flags change it.
func explainTimeouts(timeout time.Duration, attempts int) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("stwbExplainTimeouts",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (
				middleware.InitializeOutput, middleware.Metadata, error) {
				out, md, err := next.HandleInitialize(ctx, in)
				var ne net.Error
				if err != nil && ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
					err = fmt.Errorf("%w (the endpoint did not answer within %v, %d tries; --timeout and --max-attempts change these)",
						err, timeout, attempts)
				}
				return out, md, err
			}), middleware.Before)
	}
}

// cappedBody fails a read past its limit rather than letting an endless answer
// fill memory.
type cappedBody struct {
	r    io.ReadCloser
	left int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, fmt.Errorf("the endpoint's answer is larger than %d MB, more than any DynamoDB answer", MaxResponseBytes>>20)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cappedBody) Close() error { return c.r.Close() }

// cleanErrorBody redacts an error answer and cuts its long strings. A JSON object
// keeps its shape (the SDK reads __type and message from it). Anything else (a body
// cut at maxErrorBytes, HTML, garbage) becomes an object with the type found in it,
// if any, and the text as message, so that the error still shows what the endpoint
// said.
func cleanErrorBody(body []byte, secrets []string) []byte {
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		text := string(body)
		obj = map[string]any{"message": text}
		if m := errorType.FindStringSubmatch(text); m != nil {
			obj["__type"] = m[1]
		}
		if m := errorMessage.FindStringIndex(text); m != nil {
			obj["message"] = text[m[1]:]
		}
	}
	out, _ := json.Marshal(cleanValue(obj, secrets))
	return out
}

// cleanValue redacts and cuts every string in v, keeping its shape: a DynamoDB
// error carries lists and objects the SDK reads into the typed error
// (ThrottlingReasons, CancellationReasons, the Item of a failed condition).
func cleanValue(v any, secrets []string) any {
	switch x := v.(type) {
	case string:
		return model.CutValue(Redact(strings.ToValidUTF8(x, "\uFFFD"), secrets...))
	case map[string]any:
		for k, e := range x {
			x[k] = cleanValue(e, secrets)
		}
	case []any:
		for i, e := range x {
			x[i] = cleanValue(e, secrets)
		}
	}
	return v
}

// errorType and errorMessage find the parts of a JSON error answer that was cut.
var (
	errorType    = regexp.MustCompile(`"__type"\s*:\s*"([^"]{1,200})"`)
	errorMessage = regexp.MustCompile(`"[Mm]essage"\s*:\s*"`)
)

// awsKeyID matches an AWS access key id (AKIA... long-term, ASIA... temporary), and
// signature the hex signature of a SigV4 Authorization header: either may be
// echoed by an endpoint even when the credentials are not the ones in hand.
var (
	awsKeyID  = regexp.MustCompile(`\b(AKIA|ASIA)[A-Z0-9]{16}\b`)
	signature = regexp.MustCompile(`Signature=[0-9a-f]{16,}`)
)

// Redact replaces every occurrence of the given secrets (an access key id, a secret
// access key, a session token), every AWS access key id and every request
// signature in s with "[redacted]". Empty secrets are ignored.
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) < 4 {
			continue // "" or a dummy; replacing "a" everywhere would garble the text
		}
		s = strings.ReplaceAll(s, sec, "[redacted]")
		// JSON may escape "/" and "+" in a secret.
		if esc := strings.NewReplacer("/", `\/`, "+", `\u002b`).Replace(sec); esc != sec {
			s = strings.ReplaceAll(s, esc, "[redacted]")
		}
	}
	s = awsKeyID.ReplaceAllString(s, "[redacted]")
	return signature.ReplaceAllString(s, "Signature=[redacted]")
}
