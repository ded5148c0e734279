# The lab (parts/netns.hcl: its hosts, rings and services) with s3api in
# its proxy's pipeline, and the same 64 KiB GETs through Swift's API and
# through S3 side by side on the same policy, plus a mixed S3 workload with
# multipart uploads: "what does S3 cost us over the Swift API on the same
# proxy?" (docs/s3.md).
#
#   testbeds/lab/up && benchbed setup testbeds/lab/s3-lab.hcl && benchbed sweep testbeds/lab/s3-lab.hcl

testbed "s3-lab" {
  description = "local lab: 64 KiB GETs through Swift's API and through S3 (s3api) side by side, proxy workers 1 and 2"
}

include "parts/netns.hcl" {}

# The lab's proxy with s3api after cache, before tempauth, and slo after it
# for multipart uploads (parts/swift.hcl's settings, the pipeline added).
override {
  service "proxy-server" {
    settings = {
      DEFAULT         = { bind_port = 8080, workers = 1 }
      "pipeline:main" = { pipeline = "catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl s3api tempauth copy slo dlo versioned_writes symlink proxy-logging proxy-server" }
      "filter:tempauth" = { user_bench_bench = "${var.auth_key} .admin" }
      "filter:cache"    = { memcache_servers = "127.0.0.1:11211", memcache_max_connections = 10 }
    }
  }
}

variant "normal" {}

# A proxy axis applies to both APIs alike.
variant "proxy_workers" {
  name = "proxy_workers=2"
  set "proxy-server" {
    DEFAULT = { workers = 2 }
  }
}

workload "64K_get" {
  scenario          = "64K_get_lab.scenario"
  users             = 64
  duration          = "8s"
  clients           = ["client1"]
  agents_per_client = 1
  auth {
    url  = "http://198.18.0.11:8080/auth/v1.0"
    user = "bench:bench"
    key  = var.auth_key
  }
}

# The same scenario through S3: its containers become the buckets
# lab-64k-000000-default-policy..., on the same (default) policy.
workload "64K_get_s3" {
  api               = "s3"
  scenario          = "64K_get_lab.scenario"
  users             = 64
  duration          = "8s"
  clients           = ["client1"]
  agents_per_client = 1
  verify            = true
  auth {
    url        = "http://198.18.0.11:8080"
    user       = "bench:bench"
    key        = var.auth_key
    path_style = true
  }
}

# Creates, reads, updates and deletes through S3, a 6 MiB class as
# multipart uploads (parts of 5 MiB, S3's least), reads verified.
workload "mixed_s3" {
  api = "s3"
  scenario = {
    sizes = [{ name = "small", size_min = 4096, size_max = 65536 },
             { name = "multipart", size_min = 6291456, size_max = 6291456, crud_profile = [1, 3, 0, 1] }]
    initial_files   = { small = 200, multipart = 4 }
    container_base  = "lab_s3mix"
    container_count = 4
    crud_profile    = [2, 5, 1, 1]
    segment_size    = 1048576
    user_count      = 8
    run_seconds     = 8
  }
  users    = 8
  duration = "8s"
  clients  = ["client1"]
  verify   = true
  auth {
    url        = "http://198.18.0.11:8080"
    user       = "bench:bench"
    key        = var.auth_key
    path_style = true
  }
}

prefill {
  workloads   = ["64K_get", "64K_get_s3", "mixed_s3"]
  concurrency = 16
}

# Three short runs of each variant, interleaved (every variant's first,
# then every second, then every third), give the verdict an interval from
# repeats that share the lab's drift, where one long run each could not.
sweep {
  repeat     = 2
  interleave = true
  warmup     = "2s"
  on_failure = "continue"
  restore    = true
}
