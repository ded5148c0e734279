# benchbed: make test (every test), make demo (the local lab and its sweep).
SHELL := /bin/bash
GOBIN := $(shell go env GOPATH)/bin
export PATH := $(GOBIN):$(PATH)

.PHONY: all build test unit e2e lint deps demo lab-up lab-down bench clean

all: build

build:
	go build -o bin/benchbed ./cmd/benchbed

deps:
	scripts/deps.sh test

lint:
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt needed: $$bad"; exit 1; fi
	go vet ./...
	staticcheck ./...

# The Debian packages install while Go lints and compiles, the distro lab's
# image is made in the background (scripts/test-prep.sh); then the unit
# tests, then the labs' end-to-end suites, one binary at a time.
test:
	scripts/test-prep.sh
	$(MAKE) --no-print-directory unit e2e

# Tests' artefacts (report.html's screenshot in Chromium) are kept under
# bin/test-artifacts/_artifacts.
# scripts/unit.sh: the race detector on the packages with goroutines.
unit:
	scripts/unit.sh
	go test -count=1 -run 'TestLargeObjectStreamsBeyondFiveGiB' ./load  # 5 GiB objects: without the race detector
	# decode + plan + render over arbitrary text, 30 s (the seeds run above);
	# -fuzzminimizetime 0: minimising a big testbed stalls the run.
	go test -run '^$$' -fuzz '^FuzzDecodePlanRender$$' -fuzztime 30s -fuzzminimizetime 0 ./plan/render

e2e:
	scripts/e2e.sh $(E2E_FLAGS)  # prints each test's time; E2E_FLAGS=-v for their logs

demo: deps build
	scripts/demo.sh

lab-up: deps build
	testbeds/lab/up

lab-down:
	testbeds/lab/down

.PHONY: distro-up distro-down
distro-up:
	testbeds/distro/up

distro-down:
	testbeds/distro/down

clean:
	rm -rf bin
