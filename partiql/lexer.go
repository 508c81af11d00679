package partiql

import "strings"

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokIdent           // a bare name or keyword: [A-Za-z_][A-Za-z0-9_$]*
	tokQuoted          // a "double-quoted" identifier, its quotes removed and "" undoubled
	tokString          // a 'single-quoted' string, its quotes removed and '' undoubled
	tokNumber          // 12, 1.5, .5, 1e3
	tokParam           // ?
	tokPunct           // ( ) [ ] { } , . : * = <> != < <= > >= + - << >> ;
	tokIllegal         // an unterminated quote, or a character PartiQL does not know
)

// token is one lexical token; pos is its byte offset in the statement, for the
// positions DynamoDB's messages carry.
type token struct {
	kind tokKind
	text string
	pos  int
	len  int // the token's length in the source, quotes included
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// twoCharPuncts are the punctuation tokens of two characters, tried before one.
var twoCharPuncts = []string{"<>", "!=", "<=", ">=", "<<", ">>"}

// lex splits src into tokens, ending with tokEOF. It never fails: what it cannot
// read becomes tokIllegal, which the parser reports as DynamoDB does. Comments
// (-- to the end of a line, /* ... */) are skipped, as PartiQL's lexer skips them.
func lex(src string) []token {
	var toks []token
	i := 0
	for {
		for i < len(src) {
			switch {
			case src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n':
				i++
				continue
			case strings.HasPrefix(src[i:], "--"):
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			case strings.HasPrefix(src[i:], "/*"):
				end := strings.Index(src[i+2:], "*/")
				if end < 0 {
					return append(toks, token{kind: tokIllegal, text: src[i:], pos: i, len: len(src) - i})
				}
				i += end + 4
				continue
			}
			break
		}
		if i >= len(src) {
			return append(toks, token{kind: tokEOF, pos: len(src)})
		}
		start, c := i, src[i]
		switch {
		case isIdentStart(c):
			for i < len(src) && isIdentPart(src[i]) {
				i++
			}
			toks = append(toks, token{kind: tokIdent, text: src[start:i], pos: start, len: i - start})
		case c == '"' || c == '\'':
			text, end, ok := quoted(src, i, c)
			if !ok {
				return append(toks, token{kind: tokIllegal, text: src[start:], pos: start, len: len(src) - start})
			}
			k := tokString
			if c == '"' {
				k = tokQuoted
			}
			i = end
			toks = append(toks, token{kind: k, text: text, pos: start, len: i - start})
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			i = number(src, i)
			toks = append(toks, token{kind: tokNumber, text: src[start:i], pos: start, len: i - start})
		case c == '?':
			i++
			toks = append(toks, token{kind: tokParam, text: "?", pos: start, len: 1})
		default:
			p := ""
			for _, two := range twoCharPuncts {
				if strings.HasPrefix(src[i:], two) {
					p = two
					break
				}
			}
			if p == "" && strings.IndexByte("()[]{},.:*=<>+-;", c) >= 0 {
				p = src[i : i+1]
			}
			if p == "" {
				return append(toks, token{kind: tokIllegal, text: src[i : i+1], pos: start, len: 1})
			}
			i += len(p)
			toks = append(toks, token{kind: tokPunct, text: p, pos: start, len: len(p)})
		}
	}
}

// quoted reads a quoted token starting at src[i] (the quote q): its text with the
// doubled quotes undoubled, and the offset after its closing quote.
func quoted(src string, i int, q byte) (string, int, bool) {
	var b strings.Builder
	i++
	for i < len(src) {
		if src[i] == q {
			if i+1 < len(src) && src[i+1] == q {
				b.WriteByte(q)
				i += 2
				continue
			}
			return b.String(), i + 1, true
		}
		b.WriteByte(src[i])
		i++
	}
	return "", i, false
}

// number reads a numeric literal from src[i]: digits, a fraction, an exponent.
func number(src string, i int) int {
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	if i < len(src) && src[i] == '.' {
		i++
		for i < len(src) && isDigit(src[i]) {
			i++
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			i = j
		}
	}
	return i
}
