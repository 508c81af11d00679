package serve

import (
	"slices"
	"strings"
)

// Tags (API_TagResource.html, API_UntagResource.html, API_ListTagsOfResource.html):
// a table's tags, by its ARN. The messages are DynamoDB's as dynalite copies them
// (validations/tagResource.js, actions/tagResource.js).

type tagResourceInput struct {
	ResourceArn *string
	Tags        []tag
	TagKeys     []string
	NextToken   *string
}

// tableByARN finds the table an ARN names for the operation op: a table this
// namespace sees (the design's keep the ARN they were served with); an ARN of
// another account is AccessDeniedException (namespace.go), checked before the
// table is looked up, as DynamoDB checks it.
func (s *Server) tableByARN(arn *string, op string) (*table, *apiError) {
	if arn == nil {
		return nil, validationError("Invalid TableArn")
	}
	for _, t := range s.tables {
		if t.arn == *arn {
			return t, nil
		}
	}
	if !strings.HasPrefix(*arn, "arn:aws:dynamodb:") {
		return nil, validationError("Invalid TableArn: Invalid ResourceArn provided as input %s", *arn)
	}
	if parts := strings.SplitN(*arn, ":", 6); len(parts) == 6 && parts[4] != s.account {
		return nil, s.accessDenied(op, *arn)
	}
	return nil, notFound("Requested resource not found: ResourcArn: %s not found", *arn)
}

func tagResource(s *Server, in *tagResourceInput) (any, *apiError) {
	if in.Tags == nil {
		return nil, validationError("1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null")
	}
	t, err := s.tableByARN(in.ResourceArn, "TagResource")
	if err != nil {
		return nil, err
	}
	if len(in.Tags) == 0 {
		return nil, validationError("Atleast one Tag needs to be provided as Input.")
	}
	for _, nt := range in.Tags {
		if i := slices.IndexFunc(t.tags, func(x tag) bool { return x.Key == nt.Key }); i >= 0 {
			t.tags[i] = nt
		} else {
			t.tags = append(t.tags, nt)
		}
	}
	return struct{}{}, nil
}

func untagResource(s *Server, in *tagResourceInput) (any, *apiError) {
	if in.TagKeys == nil {
		return nil, validationError("1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null")
	}
	t, err := s.tableByARN(in.ResourceArn, "UntagResource")
	if err != nil {
		return nil, err
	}
	if len(in.TagKeys) == 0 {
		return nil, validationError("Atleast one Tag Key needs to be provided as Input.")
	}
	t.tags = slices.DeleteFunc(t.tags, func(x tag) bool { return slices.Contains(in.TagKeys, x.Key) })
	return struct{}{}, nil
}

func listTagsOfResource(s *Server, in *tagResourceInput) (any, *apiError) {
	t, err := s.tableByARN(in.ResourceArn, "ListTagsOfResource")
	if err != nil {
		return nil, err
	}
	return struct{ Tags []tag }{append([]tag{}, t.tags...)}, nil
}
