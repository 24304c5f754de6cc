// What every successful bake must satisfy, shared by the crowd baker's tests: the file's LODs name only
// VAT columns that exist and the VAT holds no column no LOD uses, LOD1 shares LOD0's texture and
// columns, vertex counts never grow down the levels, LOD0 stays within its bound (the welded mesh with
// the original UV seams) and the original, and the file round-trips.
#pragma once

#include "myriad/crowd_bake/pipeline.hpp"

#include <gtest/gtest.h>

#include <set>

namespace myriad::crowd::test {

inline void expect_consistent(const BakeOutput& out) {
  const CrowdFile& f = out.file;
  ASSERT_EQ(f.lods.size(), 3u);
  std::set<std::uint32_t> used;
  for (const CrowdLod& lod : f.lods) {
    for (std::uint32_t c : lod.columns) {
      EXPECT_LT(c, f.columns);
      used.insert(c);
    }
  }
  EXPECT_EQ(used.size(), f.columns) << "the VAT holds columns no LOD uses";
  EXPECT_EQ(f.texels.size(), std::size_t{f.rows} * f.columns);
  EXPECT_EQ(f.attachments.size(), f.columns - f.skinned_columns);
  EXPECT_EQ(f.lods[0].texture, f.lods[1].texture);
  std::set<std::uint32_t> lod0_columns(f.lods[0].columns.begin(), f.lods[0].columns.end());
  for (std::uint32_t c : f.lods[1].columns) EXPECT_TRUE(lod0_columns.count(c));
  const BakeReport& r = out.report;
  EXPECT_LE(r.vat_bytes_after, r.vat_bytes_before);
  EXPECT_EQ(r.lods[0].vertices, f.lods[0].vertex_count());
  EXPECT_LE(r.lods[1].vertices, r.lods[0].vertices) << "LOD1 has more vertices than LOD0";
  EXPECT_LE(r.lods[2].vertices, r.lods[1].vertices) << "LOD2 has more vertices than LOD1";
  EXPECT_LE(r.lods[1].triangles, r.lods[0].triangles);
  EXPECT_LE(r.lods[0].vertices, r.lod0_vertex_bound) << "LOD0 above its bound";
  EXPECT_LE(r.lod0_vertex_bound, r.original_vertices) << "the bound above the original";
  for (int i = 1; i < 3; ++i) {
    EXPECT_EQ(f.lods[static_cast<std::size_t>(i)].method, lod_method_name(r.lods[i].method));
    EXPECT_EQ(f.lods[static_cast<std::size_t>(i)].within_limits, r.lods[i].within_limits);
    EXPECT_EQ(f.lods[static_cast<std::size_t>(i)].holes, r.lods[i].holes.worst_holes);
  }
  EXPECT_EQ(serialize_crowd(parse_crowd(serialize_crowd(f), "mem")), serialize_crowd(f));
}

}  // namespace myriad::crowd::test
