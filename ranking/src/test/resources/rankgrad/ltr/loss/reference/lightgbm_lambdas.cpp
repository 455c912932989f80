// Prints the lambdas (gradients) that LightGBM's own compiled LambdarankNDCG objective computes,
// by loading lib_lightgbm.so from the pip wheel and calling its exported C++ entry points by their
// mangled names: Config(params), ObjectiveFunction::CreateObjectiveFunction("lambdarank", config),
// Metadata() + Init + SetLabel + SetQuery, LambdarankNDCG::Init, RankingObjective::GetGradients.
// No LightGBM header is needed: objects live in oversized buffers, members are called with an
// explicit `this`. Input on stdin:
//   truncation_level sigmoid lambdarank_norm(0|1) queries
//   per query: m, then m labels, then m scores (decimal; scores parsed as double)
// Output: one gradient per line, in document order, printed exactly (%.9g of a float32).
#include <dlfcn.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

using Params = std::unordered_map<std::string, std::string>;
using ConfigCtor = void (*)(void*, Params);
using CreateObjective = void* (*)(const std::string&, const void*);
using MetadataCtor = void (*)(void*);
using MetadataInit = void (*)(void*, int, int, int);
using SetLabel = void (*)(void*, const float*, int);
using SetQuery = void (*)(void*, const int*, int);
using ObjectiveInit = void (*)(void*, const void*, int);
using GetGradients = void (*)(const void*, const double*, float*, float*);

static void* symbol(void* lib, const char* name) {
  void* s = dlsym(lib, name);
  if (s == nullptr) {
    std::fprintf(stderr, "missing symbol %s\n", name);
    std::exit(2);
  }
  return s;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: lightgbm_lambdas /path/to/lib_lightgbm.so < input\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  int level, norm, queries;
  double sigmoid;
  if (std::scanf("%d %lf %d %d", &level, &sigmoid, &norm, &queries) != 4) return 2;
  std::vector<int> sizes;
  std::vector<float> labels;
  std::vector<double> scores;
  for (int q = 0; q < queries; ++q) {
    int m;
    if (std::scanf("%d", &m) != 1) return 2;
    sizes.push_back(m);
    std::vector<double> s(m);
    for (int i = 0; i < m; ++i) {
      float y;
      if (std::scanf("%f", &y) != 1) return 2;
      labels.push_back(y);
    }
    for (int i = 0; i < m; ++i) {
      if (std::scanf("%lf", &s[i]) != 1) return 2;
    }
    scores.insert(scores.end(), s.begin(), s.end());
  }
  int n = static_cast<int>(labels.size());
  alignas(64) static unsigned char config[1 << 20];
  alignas(64) static unsigned char metadata[1 << 20];
  Params params{{"objective", "lambdarank"},
                {"lambdarank_truncation_level", std::to_string(level)},
                {"sigmoid", std::to_string(sigmoid)},
                {"lambdarank_norm", norm ? "true" : "false"},
                {"verbosity", "-1"}};
  reinterpret_cast<ConfigCtor>(symbol(lib,
      "_ZN8LightGBM6ConfigC1ESt13unordered_mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES7_St4hashIS7_"
      "ESt8equal_toIS7_ESaISt4pairIKS7_S7_EEE"))(config, params);
  void* objective = reinterpret_cast<CreateObjective>(symbol(lib,
      "_ZN8LightGBM17ObjectiveFunction23CreateObjectiveFunctionERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIc"
      "EEERKNS_6ConfigE"))(std::string("lambdarank"), config);
  reinterpret_cast<MetadataCtor>(symbol(lib, "_ZN8LightGBM8MetadataC1Ev"))(metadata);
  reinterpret_cast<MetadataInit>(symbol(lib, "_ZN8LightGBM8Metadata4InitEiii"))(metadata, n, -1, -1);
  reinterpret_cast<SetLabel>(symbol(lib, "_ZN8LightGBM8Metadata8SetLabelEPKfi"))(metadata, labels.data(), n);
  reinterpret_cast<SetQuery>(symbol(lib, "_ZN8LightGBM8Metadata8SetQueryEPKii"))(metadata, sizes.data(), queries);
  reinterpret_cast<ObjectiveInit>(symbol(lib, "_ZN8LightGBM14LambdarankNDCG4InitERKNS_8MetadataEi"))(
      objective, metadata, n);
  std::vector<float> grad(n), hess(n);
  reinterpret_cast<GetGradients>(symbol(lib, "_ZNK8LightGBM16RankingObjective12GetGradientsEPKdPfS3_"))(
      objective, scores.data(), grad.data(), hess.data());
  for (int i = 0; i < n; ++i) {
    std::printf("%.9g\n", grad[i]);
  }
  return 0;
}
