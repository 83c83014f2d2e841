import RadioScheduling
import Testing

/// Runs a radio scheduler as `RadioExecutor` does, on the test clock, with
/// steps recorded instead of performed: a test answers them with `done` or
/// `failed`. It keeps the timers the scheduler arms as deadlines and fires
/// each when the clock reaches it, so every timer is seen armed at its
/// deadline, and nothing happens before it.
struct ScheduleDriver {
    var scheduler: any RadioScheduler
    let clock = ManualClock()
    /// The armed timers and their deadlines.
    var timers: [RadioTimer: Duration] = [:]
    /// The steps asked for and not yet answered, in order.
    var steps: [RadioStep] = []
    /// How the changes asked for ended (failed or not).
    var changes: [Bool] = []
    var halted = false

    mutating func feed(_ event: ScheduleEvent) {
        for action in scheduler.take(event, at: clock.elapsed) {
            switch action {
            case .perform(let step): steps.append(step)
            case let .arm(timer, deadline): timers[timer] = deadline
            case .cancel(let timer): timers[timer] = nil
            case .changeDone(let failed): changes.append(failed)
            case .halt: halted = true
            }
        }
    }

    /// The deadlines armed now, soonest first.
    var deadlines: [Duration] { timers.values.sorted() }

    /// Moves the clock to `time` and fires every timer due by then, in order.
    mutating func advance(to time: Duration) {
        while let (timer, deadline) = timers.filter({ $0.value <= time }).min(by: { $0.value < $1.value }) {
            clock.advance(by: deadline - clock.elapsed)
            timers[timer] = nil
            feed(.fired(timer))
        }
        clock.advance(by: time - clock.elapsed)
    }

    /// Answers a light restart's steps, in their order.
    mutating func doneLightRestart() {
        done(.forgetApps)
        done(.stopScan)
        done(.startScan)
    }

    /// Answers the oldest step asked for, which must be `step`.
    mutating func done(_ step: RadioStep, failed: Bool = false) {
        #expect(steps.first == step)
        guard steps.first == step else { return }
        steps.removeFirst()
        feed(failed ? .failed(step) : .done(step))
    }
}

/// What the schedulers' suites share: schedules, draws, and a driver of
/// each scheduler with its scan started.
protocol SchedulerSuite {}

extension SchedulerSuite {
    typealias Driver = ScheduleDriver

    static func schedule(jitter: Duration = .zero) -> RadioSchedule {
        var schedule = RadioSchedule.standard
        schedule.jitter = jitter
        return schedule
    }

    static var lowest: RadioSchedule.Draw { { $0.lowerBound } }
    static var highest: RadioSchedule.Draw { { $0.upperBound } }

    static func strict(_ schedule: RadioSchedule = Self.schedule(), random: @escaping RadioSchedule.Draw = Self.highest) -> Driver {
        var driver = Driver(scheduler: StrictScheduler(schedule: schedule, random: random))
        driver.feed(.scanStarted)
        return driver
    }

    static func light(_ schedule: RadioSchedule = Self.schedule(), random: @escaping RadioSchedule.Draw = Self.highest) -> Driver {
        var driver = Driver(scheduler: LightScheduler(schedule: schedule, random: random))
        driver.feed(.scanStarted)
        return driver
    }
}
