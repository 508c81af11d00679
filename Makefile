# The developer loop. Every target runs what CI runs (.ci/run), one part at a time.
#   make test    the whole suite, as the README gives it
#   make lint    staticcheck at the pinned version (.ci/lint; checks in staticcheck.conf)
#   make race    the race detector on the packages with goroutines
#   make bench   every benchmark once (BENCH, PKG and BENCHTIME choose: make bench PKG=./engine BENCH=Query100of BENCHTIME=1s)
#   make fuzz    every fuzz target for FUZZTIME each (default 10s)
#   make docs    rewrite the generated docs/commands.md and docs/keys.md
#   make ci      .ci/run: what CI runs, from a clean clone

GO        ?= go
PKG       ?= ./...
BENCH     ?= .
BENCHTIME ?= 1x
FUZZTIME  ?= 10s
RACE_PKGS := ./serve ./engine ./live ./ui ./analysis ./traffic

.PHONY: build test lint race bench fuzz docs ci

build:
	$(GO) build -o stwb ./cmd/stwb

test:
	$(GO) test -count=1 ./...

lint:
	.ci/lint

race:
	$(GO) test -race -count=1 $(RACE_PKGS)

bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -benchmem $(PKG)

# go test fuzzes one target of one package at a time: list them, then run each.
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKG)); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$target ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

docs:
	$(GO) test ./cmd/stwb -run TestCommandsDocIsCurrent -update
	$(GO) test ./ui -run TestKeysDocIsCurrent -update

ci:
	.ci/run
