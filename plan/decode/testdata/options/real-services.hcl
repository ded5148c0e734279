# Services and variants that set dozens of real, less common Swift options
# (daemons' sections, statsd, chunk sizes, EC proxy settings, middleware):
# TestRealOptionsValidate puts them in lab.hcl in place of its own and
# wants no diagnostic at all.

service "proxy-server" {
  role     = "proxy"
  template = "proxy-server"
  manager  = "direct"
  settings = {
    DEFAULT = { bind_port = 8080, workers = 4, max_clients = 2048, log_statsd_host = "127.0.0.1", log_statsd_port = 8125,
      log_statsd_default_sample_rate = 0.5, log_statsd_metric_prefix = "proxy", eventlet_debug = false, expose_info = true,
      client_timeout = 30, cors_allow_origin = "https://example.org", strict_cors_mode = true, log_max_line_length = 2048 }
    "app:proxy-server" = { object_chunk_size = 131072, client_chunk_size = 131072, node_timeout = 5, conn_timeout = 0.25,
      recoverable_node_timeout = 2.5, post_quorum_timeout = 0.5, concurrent_gets = true, concurrency_timeout = 0.3,
      concurrent_ec_extra_requests = 1, sorting_method = "affinity", read_affinity = "r1z1=100, r1=200",
      write_affinity = "r1", write_affinity_node_count = "2 * replicas", timing_expiry = 120,
      request_node_count = "2 * replicas", error_suppression_interval = 30, error_suppression_limit = 5,
      account_autocreate = true, allow_account_management = false,
      max_containers_per_account = 0, log_handoffs = true, recheck_updating_shard_ranges = 3600 }
    "proxy-server:policy:1" = { sorting_method = "timing", concurrent_gets = true, concurrency_timeout = 0.2, write_affinity = "r1" }
    "filter:tempauth" = { user_bench_bench = "${var.auth_key} .admin", token_life = 3600, reseller_prefix = "AUTH" }
    "filter:cache" = { memcache_servers = "127.0.0.1:11211", memcache_max_connections = 10, connect_timeout = 0.5, tries = 2 }
    "filter:proxy-logging" = { access_log_headers = true, access_log_statsd_valid_http_methods = "GET,HEAD,POST,PUT,DELETE,COPY,OPTIONS", reveal_sensitive_prefix = 16 }
    "filter:slo" = { max_manifest_segments = 2000, max_manifest_size = 8388608, rate_limit_under_size = 1048576, concurrency = 4 }
    "filter:dlo" = { rate_limit_after_segment = 10, max_get_time = 86400 }
    "filter:bulk" = { max_containers_per_extraction = 5000, max_deletes_per_request = 5000, yield_frequency = 10 }
    "filter:ratelimit" = { use = "egg:swift#ratelimit", clock_accuracy = 1000, max_sleep_time_seconds = 60, container_ratelimit_100 = 50, account_ratelimit = 0 }
  }
}

service "object-server" {
  role     = "object"
  template = "object-server"
  manager  = "direct"
  settings = {
    DEFAULT = { workers = 2, servers_per_port = 0, mount_check = false, disable_fallocate = true, fallocate_reserve = "2%",
      log_statsd_host = "127.0.0.1", log_statsd_port = 8125, network_chunk_size = 131072, disk_chunk_size = 131072,
      nice_priority = 5, ionice_class = "IOPRIO_CLASS_BE", ionice_priority = 4, reclaim_age = 604800 }
    "app:object-server" = { mb_per_sync = 256, keep_cache_size = 5242880, keep_cache_private = false, max_upload_time = 86400,
      slow = 0, replication_server = false, splice = false, node_timeout = 3, container_update_timeout = 1.5 }
    "object-replicator" = { concurrency = 2, replicator_workers = 2, rsync_timeout = 600, rsync_bwlimit = 0,
      rsync_compress = false, handoffs_first = false, handoff_delete = "auto", stats_interval = 120, ring_check_interval = 15 }
    "object-reconstructor" = { concurrency = 2, reconstructor_workers = 1, interval = 30, handoffs_only = false, quarantine_threshold = 0 }
    "object-auditor" = { files_per_second = 10, bytes_per_second = 5000000, zero_byte_files_per_second = 25, concurrency = 1, log_time = 3600 }
    "object-updater" = { concurrency = 4, interval = 60, objects_per_second = 25, slowdown = 0.02 }
    "object-expirer" = { interval = 150, processes = 0, process = 0 }
  }
}

service "container-server" {
  role     = "container"
  template = "container-server"
  manager  = "direct"
  settings = {
    DEFAULT = { workers = 1, mount_check = false, disable_fallocate = true, db_preallocation = true }
    "app:container-server" = { node_timeout = 3 }
    "container-replicator" = { concurrency = 4, per_diff = 1000, max_diffs = 100, interval = 30 }
    "container-updater" = { concurrency = 2, slowdown = 0.01, account_suppression_time = 60 }
    "container-sharder" = { shard_container_threshold = 1000000, shard_scanner_batch_size = 10, cleave_batch_size = 2, auto_shard = false }
    "container-auditor" = { containers_per_second = 100 }
  }
}

service "account-server" {
  role     = "account"
  template = "account-server"
  manager  = "direct"
  settings = {
    DEFAULT = { workers = 1, mount_check = false, disable_fallocate = true }
    "account-reaper" = { concurrency = 25, delay_reaping = 0, reap_warn_after = 2592000 }
    "account-replicator" = { concurrency = 8, interval = 30 }
  }
}

variant "normal" {}
variant "tuned" {
  set "object-server" {
    DEFAULT = { workers = 4 }
    settings = { "app:object-server" = { mb_per_sync = 512 }, "object-replicator" = { concurrency = 4 } }
  }
  set "proxy-server" {
    settings = { "app:proxy-server" = { object_chunk_size = 65536, concurrent_gets = false } }
  }
}

