import BlueZ
import Glibc
import Testing

@Suite struct KernelControllerTests {
    /// Machines without AF_BLUETOOTH (these build machines) get a clean error, not a crash;
    /// machines with it get a list whose names match their indexes.
    @Test func listsControllersOrSaysWhyNot() {
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1)
        let kernelHasBluetooth = probe >= 0 || errno != EAFNOSUPPORT
        if probe >= 0 { close(probe) }
        do {
            let controllers = try KernelController.all()
            #expect(kernelHasBluetooth)
            for controller in controllers { #expect(controller.name == "hci\(controller.index)") }
        } catch {
            if !kernelHasBluetooth {
                #expect(error.code == EAFNOSUPPORT)
                #expect(error.description.contains("AF_BLUETOOTH"))
            }
        }
    }
}
