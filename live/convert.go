package live

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/model"
)

// ToAttributeValue converts a model value to the SDK's wire form. Numbers keep their
// exact text; binary values are their raw bytes (the SDK base64-encodes them on the
// wire). A value of no known type is an error rather than a silent NULL.
func ToAttributeValue(v model.Value) (types.AttributeValue, error) {
	switch v.Type {
	case model.TypeS:
		return &types.AttributeValueMemberS{Value: v.Str}, nil
	case model.TypeN:
		return &types.AttributeValueMemberN{Value: v.Str}, nil
	case model.TypeB:
		return &types.AttributeValueMemberB{Value: []byte(v.Str)}, nil
	case model.TypeBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Bool}, nil
	case model.TypeNULL:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case model.TypeL:
		l := make([]types.AttributeValue, len(v.List))
		for i, e := range v.List {
			av, err := ToAttributeValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case model.TypeM:
		m, err := toMap(v.Map)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	case model.TypeSS, model.TypeNS:
		ss := make([]string, len(v.List))
		for i, e := range v.List {
			ss[i] = e.Str
		}
		if v.Type == model.TypeSS {
			return &types.AttributeValueMemberSS{Value: ss}, nil
		}
		return &types.AttributeValueMemberNS{Value: ss}, nil
	case model.TypeBS:
		bs := make([][]byte, len(v.List))
		for i, e := range v.List {
			bs[i] = []byte(e.Str)
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	}
	return nil, fmt.Errorf("value of unknown type %d cannot be sent to DynamoDB", v.Type)
}

// ToItem converts a model item to the SDK's wire form; an error names the attribute.
func ToItem(it model.Item) (map[string]types.AttributeValue, error) {
	if it == nil {
		return nil, nil
	}
	return toMap(it)
}

func toMap(m map[string]model.Value) (map[string]types.AttributeValue, error) {
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		av, err := ToAttributeValue(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k, err)
		}
		out[k] = av
	}
	return out, nil
}

// FromAttributeValue converts the SDK's wire form to a model value. A member the
// SDK does not know (types.UnknownUnionMember, a type newer than this build) or a
// nil value is an error naming what arrived.
func FromAttributeValue(av types.AttributeValue) (model.Value, error) {
	switch a := av.(type) {
	case *types.AttributeValueMemberS:
		return model.Str(a.Value), nil
	case *types.AttributeValueMemberN:
		return model.Num(a.Value), nil
	case *types.AttributeValueMemberB:
		return model.Bin(a.Value), nil
	case *types.AttributeValueMemberBOOL:
		return model.Bool(a.Value), nil
	case *types.AttributeValueMemberNULL:
		return model.Null(), nil
	case *types.AttributeValueMemberL:
		l := make([]model.Value, len(a.Value))
		for i, e := range a.Value {
			v, err := FromAttributeValue(e)
			if err != nil {
				return model.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			l[i] = v
		}
		return model.List(l...), nil
	case *types.AttributeValueMemberM:
		m, err := fromMap(a.Value)
		if err != nil {
			return model.Value{}, err
		}
		return model.Map(m), nil
	case *types.AttributeValueMemberSS:
		return model.StrSet(a.Value...), nil
	case *types.AttributeValueMemberNS:
		return model.NumSet(a.Value...), nil
	case *types.AttributeValueMemberBS:
		return model.BinSet(a.Value...), nil
	case *types.UnknownUnionMember:
		return model.Value{}, fmt.Errorf("attribute value of unknown type %q", a.Tag)
	case nil:
		return model.Value{}, fmt.Errorf("missing attribute value")
	}
	return model.Value{}, fmt.Errorf("attribute value of unexpected Go type %T", av)
}

// FromItem converts an item in the SDK's wire form to a model item.
func FromItem(m map[string]types.AttributeValue) (model.Item, error) {
	if m == nil {
		return nil, nil
	}
	it, err := fromMap(m)
	return model.Item(it), err
}

func fromMap(m map[string]types.AttributeValue) (map[string]model.Value, error) {
	out := make(map[string]model.Value, len(m))
	for k, av := range m {
		v, err := FromAttributeValue(av)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}
