# The rig on its own, nothing of estimator: hci0 advertises the service UUID
# and a scan-response name through the kernel's management interface, and a
# discovery on hci1 through BlueZ's D-Bus API finds it, name and UUID.
# radios: 2
# timeout: 60

advertise 0 010108Smoke
started=$(now_ms)
scan_start 1
device=$(scan_expect_name '010108Smoke$')
metric discovery_to_name_ms $(($(now_ms) - started)) ms
bluez_property "$device" Device1 UUIDs | grep -qi "$E2E_UUID" ||
  fail "$device has no service UUID $E2E_UUID"
