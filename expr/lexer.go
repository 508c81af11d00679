package expr

import (
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token. All five expression kinds share one lexer:
// keywords (AND, SET, BETWEEN, ...) are identifiers that the parser recognises by
// case-insensitive spelling, as DynamoDB does ("and" and "AND" are the same word).
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokIdent           // a bare name: [A-Za-z_][A-Za-z0-9_]*
	tokName            // #name placeholder
	tokValue           // :value placeholder
	tokNumber          // digits; only valid as a list index
	tokLParen          // (
	tokRParen          // )
	tokLBrack          // [
	tokRBrack          // ]
	tokComma           // ,
	tokDot             // .
	tokCmp             // = <> < <= > >=
	tokPlus            // +
	tokMinus           // -
	tokIllegal         // anything else; no rule accepts it, so it becomes a syntax error
)

type token struct {
	kind       tokKind
	start, end int // byte offsets into the source
	text       string
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// lex splits src into tokens, always ending with tokEOF. It never fails: characters
// DynamoDB does not accept become tokIllegal, and the parser reports them with
// DynamoDB's syntax error wording.
func lex(src string, buf []token) []token {
	toks := buf[:0]
	i := 0
	for {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i >= len(src) {
			return append(toks, token{kind: tokEOF, start: len(src), end: len(src), text: "<EOF>"})
		}
		start := i
		c := src[i]
		kind := tokIllegal
		switch {
		case isIdentStart(c):
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			kind = tokIdent
		case c >= '0' && c <= '9':
			for i < len(src) && src[i] >= '0' && src[i] <= '9' {
				i++
			}
			kind = tokNumber
		case c == '#' || c == ':':
			i++
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			if i-start > 1 {
				kind = tokName
				if c == ':' {
					kind = tokValue
				}
			}
		case c == '<':
			i++
			if i < len(src) && (src[i] == '=' || src[i] == '>') {
				i++
			}
			kind = tokCmp
		case c == '>':
			i++
			if i < len(src) && src[i] == '=' {
				i++
			}
			kind = tokCmp
		default:
			i++
			switch c {
			case '=':
				kind = tokCmp
			case '(':
				kind = tokLParen
			case ')':
				kind = tokRParen
			case '[':
				kind = tokLBrack
			case ']':
				kind = tokRBrack
			case ',':
				kind = tokComma
			case '.':
				kind = tokDot
			case '+':
				kind = tokPlus
			case '-':
				kind = tokMinus
			default:
				// One whole character, so that a message never shows half a rune.
				_, n := utf8.DecodeRuneInString(src[start:])
				i = start + n
			}
		}
		toks = append(toks, token{kind: kind, start: start, end: i, text: src[start:i]})
	}
}

// is reports whether t is the keyword kw (upper case), in any case.
func (t token) is(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }
