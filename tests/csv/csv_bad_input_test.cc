// Bad CSV, one case per class: `macroscope dump` refuses it with one line
// "macroscope: FILE:LINE: problem" and exit 1, nothing on standard output.
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope {
namespace {

using testing::Macroscope;
using testing::Quote;
using testing::TempDir;
using testing::WriteText;

struct Case {
  std::string name, text, message;  // message: what follows "FILE:"
};

void ExpectRefusals(const std::vector<Case>& cases) {
  TempDir dir;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string file = dir.path() + "/" + c.name;
    WriteText(file, c.text);
    auto r = Macroscope("dump " + Quote(file));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(file + ":" + c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // one line
  }
}

const std::string kRoot = "Container, 0, 0, 0, 10, 10, 0\nContainer, 0, T, 0, 10, 10, t1\n";

TEST(CsvBadInput, PjDump) {
  ExpectRefusals({
      {"columns.csv", kRoot + "State, t1, S, 1.000000, 2.000000, 1.000000, 0.000000\n", "3: a State line has 8 columns, this one 7"},
      {"user_fields.csv", kRoot + "Event, t1, E, 1.000000, v, extra\n", "3: an Event line"},
      {"kind.csv", kRoot + "Stat, t1, S, 1.000000, 2.000000, 1.000000, 0.000000, v\n", "3: unknown kind of line 'Stat'"},
      {"number.csv", kRoot + "Event, t1, E, 1.0x0000, v\n", "3: bad number '1.0x0000'"},
      {"variable.csv", kRoot + "Variable, t1, V, 1.000000, 2.000000, 1.000000, lots\n", "3: bad number 'lots'"},
      {"backwards.csv", kRoot + "Link, 0, L, 3.000000, 2.000000, -1.000000, v, t1, t1, k\n", "3: end before start"},
      {"container.csv", kRoot + "Event, t9, E, 1.000000, v\n", "3: unknown container 't9'"},
      {"two_kinds.csv", kRoot + "Event, t1, E, 1.000000, v\nState, t1, E, 1.000000, 2.000000, 1.000000, 0.000000, v\n",
       "4: type 'E' is an event type (line 3), not a state type"},
      {"overlap.csv",
       kRoot + "State, t1, S, 1.000000, 5.000000, 4.000000, 0.000000, a\nState, t1, S, 3.000000, 7.000000, 4.000000, 0.000000, b\n",
       "4: a state overlapping another"},
      {"imbrication.csv", kRoot + "State, t1, S, 1.000000, 5.000000, 4.000000, 2.000000, a\n", "3: imbrication 2 but 0"},
  });
}

TEST(CsvBadInput, Generic) {
  const std::string header = "container,type,kind,start,end,value\n";
  ExpectRefusals({
      {"columns.csv", header + "c,S,state,1,2\n", "2: a line of 5 columns under a header of 6"},
      {"kind.csv", header + "c,S,stat,1,2,v\n", "2: unknown kind 'stat'"},
      {"number.csv", header + "c,S,state,1,2e3,v\n", "2: bad number '2e3'"},
      {"value.csv", header + "c,V,variable,1,,high\n", "2: bad number 'high'"},
      {"backwards.csv", header + "c,S,state,3,2,v\n", "2: end before start"},
      {"no_type.csv", "container,kind,start,end\n", "1: no 'type' column in the header"},
      {"unknown.csv", "container,type,time,colour\n", "1: unknown column 'colour'"},
      {"no_time.csv", "container,type,value\n", "1: no 'time' or 'start' column in the header"},
      {"no_end.csv", header + "c,S,state,1,,v\n", "2: a state without an end"},
      {"overlap.csv", header + "c,S,,1,5,a\nc,S,,3,7,b\n", "2: a state overlapping another"},
      {"two_kinds.csv", header + "c,S,state,1,2,v\nc,S,event,1,,v\n", "3: type 'S' is a state type (line 2), not an event type"},
      {"open_quote.csv", header + "c,S,state,1,2,\"v\n", "2: malformed quoted field"},
      {"after_quote.csv", header + "c,S,state,1,2,\"v\"w\n", "2: malformed quoted field"},
  });
}

// Times the model cannot hold exactly (docs/time.md) are never accepted:
// pj_dump's seconds read as doubles (its root starts at "0") must be finite
// and below 2^53 s; times with decimals are whole ticks from the root's
// start, below 2^53 of them and within 64 bits.
TEST(CsvBadInput, PjDumpTimesBeyondTheModel) {
  const std::string ticks_root = "Container, 0, 0, 0.000000, 10.000000, 10.000000, 0\n"
                                 "Container, 0, T, 0.000000, 10.000000, 10.000000, t1\n";
  const std::string beyond = "which macroscope cannot hold exactly";
  ExpectRefusals({
      {"far.csv", kRoot + "Event, t1, E, 1e308, v\n", "3: a time '1e308', 2^53 s or more from 0, " + beyond},
      {"below.csv", kRoot + "Event, t1, E, -9223372036854775809, v\n",
       "3: a time '-9223372036854775809', 2^53 s or more from 0, " + beyond},
      {"state_end.csv", kRoot + "State, t1, S, 1, 18446744073709551616, 1, 0, v\n",
       "3: a time '18446744073709551616', 2^53 s or more from 0, " + beyond},
      {"inf.csv", kRoot + "Event, t1, E, inf, v\n", "3: a time 'inf' that is not a finite double"},
      {"nan.csv", kRoot + "Event, t1, E, nan, v\n", "3: a time 'nan' that is not a finite double"},
      {"overflow.csv", kRoot + "Event, t1, E, 1e999, v\n", "3: a time '1e999' that is not a finite double"},
      {"ticks_far.csv", ticks_root + "Event, t1, E, 9007199254.740992, v\n",
       "3: a time 9007199254740992 ticks from the trace's first event is beyond 2^53 ticks, " + beyond},
      {"ticks_huge.csv", ticks_root + "Event, t1, E, 18446744073709551616.000000, v\n",
       "3: a time '18446744073709551616.000000' beyond 64-bit ticks, " + beyond},
      {"ticks_below.csv", ticks_root + "Event, t1, E, -9223372036854775809, v\n",
       "3: a time '-9223372036854775809' beyond 64-bit ticks, " + beyond},
      {"ticks_nan.csv", ticks_root + "Event, t1, E, NaN, v\n", "3: bad number 'NaN'"},
  });
}

TEST(CsvBadInput, GenericTimesBeyondTheModel) {
  const std::string header = "container,type,kind,start,end,value\n";
  const std::string beyond = "which macroscope cannot hold exactly";
  ExpectRefusals({
      {"far.csv", header + "c,E,event,0,,v\nc,E,event,9007199254740992,,v\n",
       "3: a time 9007199254740992 ticks from the trace's first event is beyond 2^53 ticks, " + beyond},
      {"far_end.csv", header + "c,S,state,-1,9007199254740991,v\n",
       "2: a time 9007199254740992 ticks from the trace's first event is beyond 2^53 ticks, " + beyond},
      {"huge.csv", header + "c,E,event,18446744073709551616,,v\n",
       "2: a time '18446744073709551616' beyond 64-bit ticks, " + beyond},
      {"below.csv", header + "c,E,event,-9223372036854775809,,v\n",
       "2: a time '-9223372036854775809' beyond 64-bit ticks, " + beyond},
      {"span.csv", header + "c,E,event,-9000000000000000000,,v\nc,E,event,9000000000000000000,,v\n",
       "3: a time 2^63 ticks or more from the trace's first time, " + beyond},
      {"nan.csv", header + "c,E,event,nan,,v\n", "2: bad number 'nan'"},
      {"exponent.csv", header + "c,E,event,1e308,,v\n", "2: bad number '1e308'"},
  });
}

}  // namespace
}  // namespace macroscope
