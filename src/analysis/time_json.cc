#include "analysis/time_json.h"

namespace macroscope {

nlohmann::ordered_json TimeBaseJson(const TimeBase& base, double start) {
  nlohmann::ordered_json j;
  j["unit"] = base.UnitName();
  j["seconds_per_tick"] = {base.num, base.den};
  j["whole_ticks"] = base.whole_ticks;
  std::string clock;
  AppendClockSeconds(clock, base, start, base.whole_ticks ? DecimalsOfTick(base) : 9);
  j["clock_start"] = clock;
  const std::string wall = WallClock(base, start);
  j["wall_clock_start"] = wall.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(wall);
  return j;
}

}  // namespace macroscope
