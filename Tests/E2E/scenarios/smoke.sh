# The rig on its own, nothing of estimator: hci1 scans through BlueZ's D-Bus
# API, hci0 advertises the service UUID and a scan-response name through the
# kernel's management interface, and BlueZ on hci1 reports name and UUID.
# (Scan first: see air.sh for why an advertiser already on air can be missed.)
# radios: 2
# timeout: 60

scan_start 1
advertise 0 010108Smoke
device=$(scan_expect_name '010108Smoke$')
bluez_property "$device" Device1 UUIDs | grep -qi "$E2E_UUID" ||
  fail "$device has no service UUID $E2E_UUID"
