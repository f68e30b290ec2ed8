"""The CLI on another machine, through the system's OpenSSH client: `argv.py` builds what runs
(the destination, the ssh prefix, the remote command and launch), `target.py` is where it runs,
`faults.py` says in words why a connection failed, `known_hosts.py` reads and fixes host keys."""
