# benchbed: make test (every test), make demo (the local lab and its sweep).
SHELL := /bin/bash
GOBIN := $(shell go env GOPATH)/bin
export PATH := $(GOBIN):$(PATH)

.PHONY: all build test lint deps demo lab-up lab-down bench clean

all: build

build:
	go build -o bin/benchbed ./cmd/benchbed

deps:
	scripts/deps.sh test

lint:
	@bad=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$bad" ]; then echo "gofmt needed: $$bad"; exit 1; fi
	go vet ./...
	staticcheck ./...

test: deps lint
	go test -race -timeout 20m -count=1 ./...
	go test -count=1 -run TestLatencyTruth ./load  # timing truth: without the race detector

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
