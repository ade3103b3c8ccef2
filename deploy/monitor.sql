-- pg_auto_failover monitor settings (run on the monitor's database, pg_auto_failover, as a superuser):
-- the failover timeouts of docs/operations.md ("Failover timeouts"), tuned from the defaults
-- (which kept writes down 52 s when the primary's whole machine died) to about 9 s.
-- Risk: a primary cut off from the monitor for about 5 s is treated as dead and replaced.
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 4000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 4000;
SELECT pg_reload_conf();
