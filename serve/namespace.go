package serve

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"strings"
)

// Namespaces. DynamoDB's tables belong to an account and a region: a table made
// in us-east-1 does not exist in eu-west-1, nor in another account
// (HowItWorks.CoreComponents.html; a table's ARN names both). serve keys its
// tables the same way, by the credential scope of the request's signature
// (SigV4's "Credential=AKID/DATE/REGION/SERVICE/aws4_request"): the access key
// stands for an account, the region is the region. A request with no signature
// uses the server's own account and region (Options.Account, Options.Region).
//
// The design's tables are in every namespace: an application's tests see them
// whatever credentials and region they sign with, and its writes to them are the
// same table's wherever they come from. Tables made by CreateTable belong to the
// namespace that made them. Options.Shared (stwb serve --shared) keeps one
// namespace for every request, as before.
//
// The account of an access key: a key of 12 digits is that account (as LocalStack
// reads one); any other key is a 12-digit number derived from it, so that two
// keys are two accounts, as two real keys of different accounts are. An ARN of
// another account is refused as DynamoDB refuses it: AccessDeniedException.

// namespace is the tables of one account in one region, and the streams of the
// tables deleted there (kept 24 hours).
type namespace struct {
	account, region string
	tables          map[string]*table
	dropped         []*stream
}

func newNamespace(account, region string) *namespace {
	return &namespace{account: account, region: region, tables: map[string]*table{}}
}

// credentialScope reads the access key and region of a SigV4 Authorization
// header; ok is false when it carries none.
func credentialScope(auth string) (key, region string, ok bool) {
	_, rest, found := strings.Cut(auth, "Credential=")
	if !found {
		return "", "", false
	}
	if i := strings.IndexAny(rest, ", "); i >= 0 {
		rest = rest[:i]
	}
	// KEY/DATE/REGION/...: cut, not split, for the cost of every request.
	key, rest, ok1 := strings.Cut(rest, "/")
	_, rest, ok2 := strings.Cut(rest, "/")
	region, _, _ = strings.Cut(rest, "/")
	if !ok1 || !ok2 || key == "" || region == "" {
		return "", "", false
	}
	return key, region, true
}

// accountOf is the account an access key stands for.
func accountOf(key string) string {
	if len(key) == 12 && strings.Trim(key, "0123456789") == "" {
		return key
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return fmt.Sprintf("%012d", h.Sum64()%1_000_000_000_000)
}

// in is the server as the request r sees it: its namespace's tables.
func (s *Server) in(r *http.Request) *Server {
	if s.opts.Shared {
		return s
	}
	key, region, ok := credentialScope(r.Header.Get("Authorization"))
	if !ok {
		return s
	}
	sc := scope{key, region}
	s.scopesMu.RLock()
	v, ok := s.scopes[sc]
	s.scopesMu.RUnlock()
	if ok {
		return v
	}
	ns := s.home
	if account := accountOf(key); account != ns.account || region != ns.region {
		ns = s.space(account, region)
	}
	v = &Server{state: s.state, namespace: ns}
	s.scopesMu.Lock()
	defer s.scopesMu.Unlock()
	if len(s.scopes) < maxScopes {
		s.scopes[scope{strings.Clone(key), strings.Clone(region)}] = v
	}
	return v
}

// scope is a request's credential scope: the access key it signs with, and the
// region. State.scopes remembers the server each one sees, so that a request pays
// neither accountOf's hash nor the namespaces' lock; maxScopes bounds it (a client
// signing with ever new keys only misses the cache).
type scope struct{ key, region string }

const maxScopes = 4096

// space is the namespace of an account and region, made (holding the design's
// tables) the first time it is asked for.
func (s *Server) space(account, region string) *namespace {
	s.spacesMu.Lock()
	defer s.spacesMu.Unlock()
	k := account + "/" + region
	ns, ok := s.spaces[k]
	if !ok {
		ns = newNamespace(account, region)
		// A new namespace is seen by no request yet: its map is filled without mu.
		for _, t := range s.design {
			ns.tables[t.def.Name] = t
		}
		s.spaces[k] = ns
	}
	return ns
}

// allTables lists the tables of every namespace, the design's once.
func (s *Server) allTables() []*table {
	s.spacesMu.Lock()
	defer s.spacesMu.Unlock()
	seen := map[*table]bool{}
	var out []*table
	for _, ns := range s.spaces {
		for _, t := range ns.tables {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// accessDenied is DynamoDB's answer to a request on a resource of another account
// (IAM: "User: ... is not authorized to perform: dynamodb:OP on resource: ARN
// because no resource-based policy allows the dynamodb:OP action"; an ARN of
// another account is AccessDeniedException, checked before the table is looked
// up: ExtendDB/extenddb#227, verified against DynamoDB; the conformance suite's
// ListTagsOfResource capture).
func (s *Server) accessDenied(op, arn string) *apiError {
	return &apiError{status: 400, prefix: nsCoral, code: "AccessDeniedException",
		message: fmt.Sprintf("User: arn:aws:iam::%s:root is not authorized to perform: dynamodb:%s on resource: %s because no resource-based policy allows the dynamodb:%s action", s.account, op, arn, op)}
}
