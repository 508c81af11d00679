package live

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Config says which endpoint to talk to, as the AWS CLI's --endpoint-url, --region
// and --profile do.
type Config struct {
	Endpoint string // "" for AWS itself
	Region   string // "" for the standard resolution (AWS_REGION, the profile, ...)
	Profile  string // "" for AWS_PROFILE or the default profile
	// Credentials replaces the standard credential chain when set (tests sign with
	// static ones for an emulator).
	Credentials aws.CredentialsProvider
	// Timeout bounds one HTTP request (DefaultRequestTimeout when 0); MaxAttempts
	// the tries of one call (DefaultMaxAttempts when 0); MaxBackoff the wait between
	// tries (DefaultMaxBackoff when 0). See bounds.go.
	Timeout     time.Duration
	MaxAttempts int
	MaxBackoff  time.Duration
}

// localCredentials sign requests to an emulator on a loopback endpoint when the
// standard chain finds none: dynalite and DynamoDB Local accept any credentials,
// and a developer without an AWS account should still be able to try a design.
var localCredentials = credentials.NewStaticCredentialsProvider("stwb-local", "stwb-local", "")

// NewClient makes a DynamoDB client with the standard credential chain and region
// resolution (environment, shared config and credentials files, SSO, instance
// roles), overridden by c. Credentials are only ever held in memory.
//
// For a loopback endpoint two conveniences apply, since an emulator needs neither:
// a region that resolves to nothing becomes us-east-1, and when the chain finds no
// credentials, dummy ones are used. Neither applies to any other endpoint.
func NewClient(ctx context.Context, c Config) (*dynamodb.Client, error) {
	local, err := isLoopback(c.Endpoint)
	if err != nil {
		return nil, err
	}
	var opts []func(*config.LoadOptions) error
	if c.Region != "" {
		opts = append(opts, config.WithRegion(c.Region))
	}
	if c.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(c.Profile))
	}
	if c.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(c.Credentials))
	}
	if local {
		// No instance metadata lookups (seconds of timeouts off EC2) for an emulator.
		opts = append(opts, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("loading AWS configuration: %w (check --profile and ~/.aws/config)", err)
	}
	if local {
		if cfg.Region == "" {
			cfg.Region = "us-east-1"
		}
		if c.Credentials == nil {
			if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
				cfg.Credentials = localCredentials
			}
		}
	} else if cfg.Region == "" {
		return nil, fmt.Errorf("no AWS region: pass --region, set AWS_REGION, or set a region in the profile")
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
		}
		o.HTTPClient = awshttp.NewBuildableClient().WithTimeout(c.timeout())
		o.Retryer = retryer(c)
		o.APIOptions = append(o.APIOptions, guardResponses(cfg.Credentials), explainTimeouts(c.timeout(), c.attempts()))
	}), nil
}

// isLoopback reports whether an endpoint URL names this machine. An endpoint that is
// not an http(s) URL is an error naming the flag.
func isLoopback(endpoint string) (bool, error) {
	if endpoint == "" {
		return false, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false, fmt.Errorf("--endpoint %q is not a URL such as http://localhost:8000", endpoint)
	}
	host := u.Hostname()
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// IsAWS reports whether the endpoint is AWS itself (no endpoint given, or an
// amazonaws.com host): there deploying costs money, and the plan says so.
func IsAWS(endpoint string) bool {
	if endpoint == "" {
		return true
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	h := u.Hostname()
	return h == "amazonaws.com" || len(h) > len(".amazonaws.com") && h[len(h)-len(".amazonaws.com"):] == ".amazonaws.com"
}
