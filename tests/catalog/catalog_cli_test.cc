// The catalog through the CLI: add/list/info/annotate/rm round trip, two
// processes at once, and the bad catalogs (locked, newer schema, not SQLite).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Result {
  int exit_code = -1;
  std::string output;  // stdout only
  std::string all;     // stdout and stderr
};

Result Shell(const std::string& command) {
  Result r;
  const std::string err = ::testing::TempDir() + "catalog_stderr_" + std::to_string(::getpid()) + "_" +
                          std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  FILE* pipe = popen((command + " 2>'" + err + "'").c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  r.all = r.output + std::string(std::istreambuf_iterator<char>(in), {});
  std::remove(err.c_str());
  return r;
}

std::string M() { return MACROSCOPE_BINARY; }

class CatalogCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "catalog_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    Shell("rm -rf '" + dir_ + "' && mkdir -p '" + dir_ + "'");
    catalog_ = dir_ + "/catalog.sqlite";
    trace_ = dir_ + "/trace.paje";
    ASSERT_EQ(Shell(M() + " generate --events 2000 -o '" + trace_ + "'").exit_code, 0);
  }
  void TearDown() override { Shell("rm -rf '" + dir_ + "'"); }

  Result Catalog(const std::string& args) { return Shell(M() + " catalog " + args + " --catalog '" + catalog_ + "'"); }

  // The first column of the first row of `sql` on the catalog file (-1
  // when it fails or has no row).
  int64_t QueryInt(const std::string& sql) {
    sqlite3* db = nullptr;
    int64_t value = -1;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_open(catalog_.c_str(), &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
      value = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return value;
  }

  std::string dir_, catalog_, trace_;
};

TEST_F(CatalogCli, RoundTrip) {
  Result add = Catalog("add '" + trace_ +
                       "' --application lu --board grid5000 --os linux --cpus 8 --description 'a test' "
                       "--param np=8 --param class=B --json");
  ASSERT_EQ(add.exit_code, 0) << add.all;
  auto added = nlohmann::json::parse(add.output);
  const int64_t id = added["id"];
  EXPECT_GT(added["events"].get<int64_t>(), 2000);
  EXPECT_GT(added["producers"].get<int64_t>(), 0);
  EXPECT_LT(added["first_time"].get<double>(), added["last_time"].get<double>());
  EXPECT_FALSE(added["tracing_date"].get<std::string>().empty());

  Result list = Catalog("list --json");
  ASSERT_EQ(list.exit_code, 0) << list.all;
  auto rows = nlohmann::json::parse(list.output);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["application"], "lu");
  EXPECT_EQ(rows[0]["board"], "grid5000");
  EXPECT_EQ(rows[0]["os"], "linux");
  EXPECT_EQ(rows[0]["cpus"], 8);
  EXPECT_EQ(rows[0]["description"], "a test");
  EXPECT_EQ(rows[0]["parameters"]["np"], "8");
  EXPECT_EQ(rows[0]["parameters"]["class"], "B");

  // Adding the same file twice is refused.
  Result again = Catalog("add '" + trace_ + "'");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.all.find("already in the catalog"), std::string::npos) << again.all;

  ASSERT_EQ(Catalog("annotate " + std::to_string(id) + " --start 1 --end 2 --containers c1,c2 --text 'slow phase'")
                .exit_code,
            0);
  ASSERT_EQ(Catalog("annotate '" + trace_ + "' --start 0.5 --end 0.5 --text mark --bookmark").exit_code, 0);

  Result info = Catalog("info " + std::to_string(id) + " --json");
  ASSERT_EQ(info.exit_code, 0) << info.all;
  auto j = nlohmann::json::parse(info.output);
  EXPECT_EQ(j["path"], rows[0]["path"]);
  ASSERT_EQ(j["annotations"].size(), 2u);
  EXPECT_EQ(j["annotations"][0]["kind"], "bookmark");
  EXPECT_EQ(j["annotations"][0]["text"], "mark");
  EXPECT_EQ(j["annotations"][1]["kind"], "annotation");
  EXPECT_EQ(j["annotations"][1]["containers"], nlohmann::json({"c1", "c2"}));
  EXPECT_EQ(j["annotations"][1]["start"], 1.0);
  EXPECT_EQ(j["annotations"][1]["end"], 2.0);
  EXPECT_TRUE(j["aggregations"].empty());

  Result text = Catalog("info '" + trace_ + "'");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("slow phase"), std::string::npos);

  ASSERT_EQ(Catalog("rm " + std::to_string(id)).exit_code, 0);
  EXPECT_TRUE(nlohmann::json::parse(Catalog("list --json").output).empty());
  Result gone = Catalog("info " + std::to_string(id));
  EXPECT_EQ(gone.exit_code, 1);
  EXPECT_NE(gone.all.find("no trace"), std::string::npos);
  // Annotations went with the trace (foreign keys cascade).
  EXPECT_EQ(QueryInt("SELECT count(*) FROM annotations"), 0);
}

// `aggregate --save` keeps the parameters and the very result printed, on
// the trace's entry; a trace missing from the catalog is refused before
// any work, and nothing is saved.
TEST_F(CatalogCli, AggregateSaveKeepsParametersAndResult) {
  const std::string aggregate = M() + " aggregate '" + trace_ + "' --no-cache --slices 10 --catalog '" + catalog_ + "'";
  Result missing = Shell(aggregate + " --p 0.3 --save");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.output, "");
  EXPECT_NE(missing.all.find("is not in the catalog"), std::string::npos) << missing.all;

  ASSERT_EQ(Catalog("add '" + trace_ + "'").exit_code, 0);
  Result partition = Shell(aggregate + " --p 0.3 --save");
  ASSERT_EQ(partition.exit_code, 0) << partition.all;
  Result plist = Shell(aggregate + " --mode spatiotemporal --plist --save");
  ASSERT_EQ(plist.exit_code, 0) << plist.all;

  Result info = Catalog("info '" + trace_ + "' --json");
  ASSERT_EQ(info.exit_code, 0) << info.all;
  nlohmann::json saved = nlohmann::json::parse(info.output)["aggregations"];
  ASSERT_EQ(saved.size(), 2u);
  EXPECT_EQ(saved[0]["parameters"]["p"], 0.3);
  EXPECT_EQ(saved[0]["parameters"]["slices"], 10);
  EXPECT_EQ(saved[0]["parameters"]["mode"], "temporal");
  EXPECT_EQ(saved[0]["result"], nlohmann::json::parse(partition.output));
  EXPECT_EQ(saved[1]["parameters"]["plist"], "exact");
  EXPECT_EQ(saved[1]["parameters"]["mode"], "spatiotemporal");
  EXPECT_EQ(saved[1]["result"], nlohmann::json::parse(plist.output));

  Result csv_model = Shell(M() + " aggregate --model-in /dev/null --p 0.5 --save --catalog '" + catalog_ + "'");
  EXPECT_EQ(csv_model.exit_code, 1);
  EXPECT_NE(csv_model.all.find("--save needs a trace"), std::string::npos) << csv_model.all;
}

TEST_F(CatalogCli, DefaultLocationUnderXdgDataHome) {
  Result add = Shell("XDG_DATA_HOME='" + dir_ + "/xdg' " + M() + " catalog add '" + trace_ + "'");
  ASSERT_EQ(add.exit_code, 0) << add.all;
  EXPECT_TRUE(std::ifstream(dir_ + "/xdg/macroscope/catalog.sqlite").good());
}

TEST_F(CatalogCli, TwoProcessesAtOnce) {
  // Both processes start on a catalog that does not exist yet.
  for (int i = 0; i < 40; ++i) Shell("cp '" + trace_ + "' '" + dir_ + "/t" + std::to_string(i) + ".paje'");
  std::vector<Result> failures[2];
  std::vector<std::thread> threads;
  for (int p = 0; p < 2; ++p)
    threads.emplace_back([&, p] {
      for (int i = p; i < 40; i += 2) {
        Result r = Catalog("add '" + dir_ + "/t" + std::to_string(i) + ".paje'");
        if (r.exit_code != 0) failures[p].push_back(r);
      }
    });
  for (auto& t : threads) t.join();
  for (auto& f : failures)
    for (auto& r : f) ADD_FAILURE() << r.exit_code << ": " << r.all;
  auto rows = nlohmann::json::parse(Catalog("list --json").output);
  EXPECT_EQ(rows.size(), 40u);
}

TEST_F(CatalogCli, LockedCatalogIsAUserError) {
  ASSERT_EQ(Catalog("list").exit_code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(catalog_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "BEGIN EXCLUSIVE; INSERT INTO traces (path) VALUES ('/held')", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  Result r = Shell("MACROSCOPE_CATALOG_TIMEOUT_MS=200 " + M() + " catalog add '" + trace_ + "' --catalog '" +
                 catalog_ + "'");
  EXPECT_EQ(r.exit_code, 1) << r.all;
  EXPECT_NE(r.all.find(catalog_), std::string::npos) << r.all;
  EXPECT_NE(r.all.find("locked"), std::string::npos) << r.all;
  sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_EQ(Catalog("add '" + trace_ + "'").exit_code, 0);
}

TEST_F(CatalogCli, NewerSchemaIsRefused) {
  ASSERT_EQ(Catalog("list").exit_code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(catalog_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  Result r = Catalog("list");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.all.find(catalog_), std::string::npos) << r.all;
  EXPECT_NE(r.all.find("made by a newer macroscope"), std::string::npos) << r.all;
}

TEST_F(CatalogCli, OtherDatabasesAreRefused) {
  std::ofstream(catalog_) << "this is not an SQLite database, just text\n";
  Result r = Catalog("list");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.all.find(catalog_), std::string::npos) << r.all;
  EXPECT_NE(r.all.find("not a macroscope catalog"), std::string::npos) << r.all;

  const std::string other = dir_ + "/other.sqlite";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE x (a)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  Result o = Shell(M() + " catalog list --catalog '" + other + "'");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.all.find(other), std::string::npos) << o.all;
}

// Groups (schema version 3): traces added in order, a repeated path kept
// once where it was, listed with their counts; an unknown group and a
// missing trace refused.
TEST_F(CatalogCli, GroupsKeepTheirTracesInOrder) {
  const std::string second = dir_ + "/second.paje", third = dir_ + "/third.paje";
  ASSERT_EQ(Shell("cp '" + trace_ + "' '" + second + "' && cp '" + trace_ + "' '" + third + "'").exit_code, 0);
  ASSERT_EQ(Catalog("group add runs '" + trace_ + "' '" + second + "'").exit_code, 0);
  Result again = Catalog("group add runs '" + dir_ + "/./trace.paje' '" + third + "'");
  ASSERT_EQ(again.exit_code, 0) << again.all;
  Result show = Catalog("group show runs --json");
  ASSERT_EQ(show.exit_code, 0) << show.all;
  EXPECT_EQ(nlohmann::json::parse(show.output), nlohmann::json({trace_, second, third}));
  ASSERT_EQ(Catalog("group add other '" + third + "'").exit_code, 0);
  Result list = Catalog("group list --json");
  ASSERT_EQ(list.exit_code, 0) << list.all;
  EXPECT_EQ(nlohmann::json::parse(list.output),
            nlohmann::json::parse(R"([{"name": "other", "traces": 1}, {"name": "runs", "traces": 3}])"));

  Result unknown = Catalog("group show nope");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.all.find("no group 'nope'"), std::string::npos) << unknown.all;
  EXPECT_NE(unknown.all.find(catalog_), std::string::npos) << unknown.all;
  Result missing = Catalog("group add runs '" + dir_ + "/absent.paje'");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.all.find("absent.paje: no such file"), std::string::npos) << missing.all;
}

// A catalog of schema version 2 (before groups) is migrated when opened:
// its traces stay, groups work.
TEST_F(CatalogCli, Version2CatalogGainsGroups) {
  ASSERT_EQ(Catalog("add '" + trace_ + "'").exit_code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(catalog_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DROP TABLE trace_group_members; DROP TABLE trace_groups; PRAGMA user_version = 2",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  ASSERT_EQ(Catalog("group add runs '" + trace_ + "'").exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(Catalog("group show runs --json").output), nlohmann::json({trace_}));
  EXPECT_EQ(nlohmann::json::parse(Catalog("list --json").output).size(), 1u);
  EXPECT_EQ(QueryInt("PRAGMA user_version"), 3);
}

}  // namespace
