package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"

	"github.com/aws/smithy-go"
)

// Explain says in one line why a call to the endpoint failed and what to do about
// it, for the command line and the workbench alike: nothing listening there, a host
// name that does not resolve, no answer within timeout (the caller's own bound; 0
// when it set none, and the error then says which bound ran out), or the service's
// own error code and message, without the SDK's wrapping of operation, HTTP status
// and request id that would push them off a status line. Any other error is given
// as it is.
func Explain(err error, endpoint string, timeout time.Duration) string {
	var (
		dns *net.DNSError
		api smithy.APIError
	)
	switch {
	case timeout > 0 && errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("%s did not answer within %v; check that the endpoint is up, then try again", orAWS(endpoint), timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "nothing answers at " + orAWS(endpoint) + " (connection refused); start the endpoint or check the URL"
	case errors.As(err, &dns):
		return "cannot find the host of " + orAWS(endpoint) + " (" + dns.Err + "); check the URL"
	case errors.As(err, &api):
		return api.ErrorCode() + ": " + api.ErrorMessage()
	}
	return err.Error()
}
