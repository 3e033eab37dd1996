<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>AlibiView</name>
        <message>
            <source>ALiBi adds no position vectors: head h subtracts m_h × distance from its attention scores. Slopes fall geometrically (8 heads: 1/2 … 1/256), so some heads look far.</source>
            <translation>ALiBi 不加位置向量：第 h 个头从注意力得分中减去 m_h × 距离。斜率按几何级数下降（8 个头：1/2 … 1/256），所以有些头能看得很远。</translation>
        </message>
        <message>
            <source>heads</source>
            <translation>头数</translation>
        </message>
        <message>
            <source>causal (mask future keys)</source>
            <translation>因果（屏蔽未来的键）</translation>
        </message>
        <message>
            <source>head h</source>
            <translation>头 h</translation>
        </message>
        <message>
            <source>slope m_h</source>
            <translation>斜率 m_h</translation>
        </message>
        <message>
            <source>slopes</source>
            <translation>斜率</translation>
        </message>
        <message>
            <source>key j</source>
            <translation>键 j</translation>
        </message>
        <message>
            <source>query i</source>
            <translation>查询 i</translation>
        </message>
        <message>
            <source>head %1: m = %2</source>
            <translation>头 %1：m = %2</translation>
        </message>
        <message>
            <source>%1 heads, slopes: %2</source>
            <translation>%1 个头，斜率：%2</translation>
        </message>
    </context>
    <context>
        <name>AnimationBar</name>
        <message>
            <source>Animation</source>
            <translation>动画</translation>
        </message>
        <message>
            <source>Animate:</source>
            <translation>动画参数：</translation>
        </message>
        <message>
            <source>position cursor</source>
            <translation>位置光标</translation>
        </message>
        <message>
            <source>base</source>
            <translation>基数</translation>
        </message>
        <message>
            <source>d_model</source>
            <translation>d_model</translation>
        </message>
        <message>
            <source>offset k (Relative offset view)</source>
            <translation>偏移 k（相对偏移视图）</translation>
        </message>
        <message>
            <source> steps/s</source>
            <translation> 步/秒</translation>
        </message>
        <message>
            <source>Pause</source>
            <translation>暂停</translation>
        </message>
        <message>
            <source>Play</source>
            <translation>播放</translation>
        </message>
        <message>
            <source>Play or pause the sweep (Ctrl+P)</source>
            <translation>播放或暂停扫描（Ctrl+P）</translation>
        </message>
    </context>
    <context>
        <name>CaptionBar</name>
        <message>
            <source>Previous scene (PageUp)</source>
            <translation>上一个场景（PageUp）</translation>
        </message>
        <message>
            <source>Next scene (PageDown, Space)</source>
            <translation>下一个场景（PageDown、空格）</translation>
        </message>
        <message>
            <source>No lesson loaded</source>
            <translation>尚未载入课程</translation>
        </message>
        <message>
            <source>Lesson ▸ Start built-in lesson, or File ▸ Open scene or deck.</source>
            <translation>课程 ▸ 开始内置课程，或 文件 ▸ 打开场景或场景集。</translation>
        </message>
        <message>
            <source>scene %1 / %2</source>
            <translation>场景 %1 / %2</translation>
        </message>
    </context>
    <context>
        <name>Catalogue</name>
        <message>
            <source>PE heatmap</source>
            <translation>位置编码热力图</translation>
        </message>
        <message>
            <source>Frequency curves</source>
            <translation>频率曲线</translation>
        </message>
        <message>
            <source>Position similarity</source>
            <translation>位置相似度</translation>
        </message>
        <message>
            <source>Tokens</source>
            <translation>词元</translation>
        </message>
        <message>
            <source>Learned positions</source>
            <translation>可学习的位置</translation>
        </message>
        <message>
            <source>Layout conventions</source>
            <translation>布局约定</translation>
        </message>
        <message>
            <source>Relative offset</source>
            <translation>相对偏移</translation>
        </message>
        <message>
            <source>Frequencies</source>
            <translation>频率</translation>
        </message>
        <message>
            <source>RoPE</source>
            <translation>RoPE</translation>
        </message>
        <message>
            <source>ALiBi</source>
            <translation>ALiBi</translation>
        </message>
        <message>
            <source>Distance chart</source>
            <translation>距离图</translation>
        </message>
        <message>
            <source>Precision</source>
            <translation>精度</translation>
        </message>
        <message>
            <source>RoPE, real weights</source>
            <translation>RoPE（真实权重）</translation>
        </message>
        <message>
            <source>Check my table</source>
            <translation>检查我的表</translation>
        </message>
    </context>
    <context>
        <name>CheckActions</name>
        <message>
            <source>Check my &amp;table…</source>
            <translation>检查我的表(&amp;T)…</translation>
        </message>
        <message>
            <source>Check my table</source>
            <translation>检查我的表</translation>
        </message>
        <message>
            <source>Tables (%1);;All files (*)</source>
            <translation>表 (%1);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Reading %1…</source>
            <translation>正在读取 %1…</translation>
        </message>
        <message>
            <source>Diagnosing %1…</source>
            <translation>正在诊断 %1…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Check cancelled</source>
            <translation>检查已取消</translation>
        </message>
        <message>
            <source>%1 holds several arrays. Which one?</source>
            <translation>%1 含有多个数组。检查哪一个？</translation>
        </message>
        <message>
            <source>Checked %1</source>
            <translation>已检查 %1</translation>
        </message>
    </context>
    <context>
        <name>CheckView</name>
        <message>
            <source>Open a table…</source>
            <translation>打开一张表…</translation>
        </message>
        <message>
            <source>File → Check my table… (Ctrl+K)</source>
            <translation>文件 → 检查我的表…（Ctrl+K）</translation>
        </message>
        <message>
            <source>it is</source>
            <translation>它是</translation>
        </message>
        <message>
            <source>guess</source>
            <translation>自动判断</translation>
        </message>
        <message>
            <source>a PE table</source>
            <translation>位置编码表</translation>
        </message>
        <message>
            <source>a RoPE cos/sin cache</source>
            <translation>RoPE cos/sin 缓存</translation>
        </message>
        <message>
            <source>an inv_freq vector</source>
            <translation>inv_freq 向量</translation>
        </message>
        <message>
            <source>pairing should be</source>
            <translation>配对应为</translation>
        </message>
        <message>
            <source>any</source>
            <translation>任意</translation>
        </message>
        <message>
            <source>half: cat(freqs, freqs)</source>
            <translation>half：cat(freqs, freqs)</translation>
        </message>
        <message>
            <source>interleaved: repeat_interleave</source>
            <translation>interleaved：repeat_interleave</translation>
        </message>
        <message>
            <source>base should be</source>
            <translation>base 应为</translation>
        </message>
        <message>
            <source>No table to check yet.

File → Check my table… (Ctrl+K) opens a .npy, .npz, .safetensors, .csv, .pt or .pth file holding a PE table, a RoPE cos/sin cache or an inv_freq vector.
From Python: explorer.show(x) with a numpy array, a torch tensor or a PositionalEncoding module.</source>
            <translation>还没有要检查的表。

文件 → 检查我的表…（Ctrl+K）可打开 .npy、.npz、.safetensors、.csv、.pt 或 .pth 文件，其中存有位置编码表、RoPE cos/sin 缓存或 inv_freq 向量。
在 Python 中：explorer.show(x)，x 可以是 numpy 数组、torch 张量或 PositionalEncoding 模块。</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>your table</source>
            <translation>你的表</translation>
        </message>
        <message>
            <source>the reference</source>
            <translation>参考表</translation>
        </message>
        <message>
            <source>difference: yours − reference</source>
            <translation>差值：你的 − 参考</translation>
        </message>
        <message>
            <source>θᵢ (log scale)</source>
            <translation>θᵢ（对数坐标）</translation>
        </message>
        <message>
            <source>your inv_freq and the reference</source>
            <translation>你的 inv_freq 与参考值</translation>
        </message>
        <message>
            <source>yours − reference</source>
            <translation>你的 − 参考</translation>
        </message>
        <message>
            <source>difference</source>
            <translation>差值</translation>
        </message>
        <message>
            <source>frequency index i</source>
            <translation>频率序号 i</translation>
        </message>
        <message>
            <source>reference</source>
            <translation>参考</translation>
        </message>
        <message>
            <source>yours</source>
            <translation>你的</translation>
        </message>
        <message>
            <source>Mistake: %1</source>
            <translation>错误：%1</translation>
        </message>
        <message>
            <source>also: %1</source>
            <translation>另外：%1</translation>
        </message>
        <message>
            <source>Fix (PyTorch): %1</source>
            <translation>修正（PyTorch）：%1</translation>
        </message>
        <message>
            <source>PE table</source>
            <translation>位置编码表</translation>
        </message>
        <message>
            <source>RoPE cos/sin cache</source>
            <translation>RoPE cos/sin 缓存</translation>
        </message>
        <message>
            <source>inv_freq vector</source>
            <translation>inv_freq 向量</translation>
        </message>
        <message>
            <source>%1: %2, %3 (as analysed)</source>
            <translation>%1：%2，%3（按分析时的方向）</translation>
        </message>
        <message>
            <source>no reference: the data fits no known table</source>
            <translation>没有参考表：数据不符合任何已知的表</translation>
        </message>
        <message>
            <source>max |yours − reference| = %1 (a match allows %2)</source>
            <translation>max |你的 − 参考| = %1（判定为符合允许 %2）</translation>
        </message>
        <message>
            <source>max |yours − reference| = %1; the diagnosis explains your data to %2 (a match allows %3)</source>
            <translation>max |你的 − 参考| = %1；诊断出的错误与你的数据相差 %2（判定为符合允许 %3）</translation>
        </message>
        <message>
            <source>%1 of %2 values drawn (evenly spaced rows and columns, exact values)</source>
            <translation>绘出 %2 个值中的 %1 个（均匀间隔的行与列，数值精确）</translation>
        </message>
        <message>
            <source>dimension</source>
            <translation>维度</translation>
        </message>
        <message>
            <source>the reference it matches</source>
            <translation>它符合的参考表</translation>
        </message>
        <message>
            <source>the right table</source>
            <translation>正确的表</translation>
        </message>
        <message>
            <source>no reference</source>
            <translation>没有参考表</translation>
        </message>
    </context>
    <context>
        <name>ChipStrip</name>
        <message>
            <source>position %1, ID %2, characters %3–%4</source>
            <translation>位置 %1，ID %2，字符 %3–%4</translation>
        </message>
        <message>
            <source>incomplete UTF-8 bytes of “%1”</source>
            <translation>“%1”的不完整 UTF-8 字节</translation>
        </message>
    </context>
    <context>
        <name>ControlPanel</name>
        <message>
            <source>d_model (embedding width)</source>
            <translation>d_model（嵌入宽度）</translation>
        </message>
        <message>
            <source>max_len (positions)</source>
            <translation>max_len（位置数）</translation>
        </message>
        <message>
            <source>base (10000 in the paper)</source>
            <translation>基数（论文中为 10000）</translation>
        </message>
        <message>
            <source>interleaved: sin, cos, sin, cos … (paper)</source>
            <translation>交错：sin, cos, sin, cos …（论文）</translation>
        </message>
        <message>
            <source>concat: all sin, then all cos (TF tutorial)</source>
            <translation>拼接：先全部 sin，再全部 cos（TF 教程）</translation>
        </message>
        <message>
            <source>t2t: concat, tensor2tensor/fairseq frequencies</source>
            <translation>t2t：拼接，tensor2tensor/fairseq 的频率</translation>
        </message>
        <message>
            <source>auto</source>
            <translation>自动</translation>
        </message>
        <message>
            <source>cosine similarity</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
        <message>
            <source>diverging (CET-D1)</source>
            <translation>发散色图 (CET-D1)</translation>
        </message>
        <message>
            <source>multiply token embedding by √d_model</source>
            <translation>词元嵌入乘以 √d_model</translation>
        </message>
        <message>
            <source>Reset to defaults</source>
            <translation>恢复默认值</translation>
        </message>
        <message>
            <source>Encoding</source>
            <translation>编码</translation>
        </message>
        <message>
            <source>Layout</source>
            <translation>布局</translation>
        </message>
        <message>
            <source>Precision</source>
            <translation>精度</translation>
        </message>
        <message>
            <source>Similarity</source>
            <translation>相似度</translation>
        </message>
        <message>
            <source>Colour map</source>
            <translation>色图</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>设备</translation>
        </message>
        <message>
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>from the preset</source>
            <translation>来自预设</translation>
        </message>
        <message>
            <source>preset value: %1</source>
            <translation>预设值：%1</translation>
        </message>
        <message>
            <source>from %1</source>
            <translation>来自 %1</translation>
        </message>
        <message>
            <source>changed since: %1</source>
            <translation>之后改动：%1</translation>
        </message>
    </context>
    <context>
        <name>ConventionsView</name>
        <message>
            <source>Three published channel orders of the same sinusoids. Concat is interleaved with its channels permuted (matrix P), so every dot product is unchanged; t2t spaces its frequencies differently, so its similarities differ.</source>
            <translation>同一组正弦信号的三种已发表的通道顺序。拼接式只是把交错式的通道重新排列（矩阵 P），所以所有点积都不变；t2t 的频率间隔不同，所以它的相似度也不同。</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>interleaved (paper)</source>
            <translation>交错式（论文）</translation>
        </message>
        <message>
            <source>concat (TF tutorial)</source>
            <translation>拼接式（TF 教程）</translation>
        </message>
        <message>
            <source>t2t / fairseq</source>
            <translation>t2t / fairseq</translation>
        </message>
        <message>
            <source>concat channel</source>
            <translation>拼接式通道</translation>
        </message>
        <message>
            <source>interleaved channel</source>
            <translation>交错式通道</translation>
        </message>
        <message>
            <source>P: interleaved → concat</source>
            <translation>P：交错式 → 拼接式</translation>
        </message>
        <message>
            <source>position q</source>
            <translation>位置 q</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>S interleaved = S concat</source>
            <translation>S 交错式 = S 拼接式</translation>
        </message>
        <message>
            <source>S t2t − S interleaved</source>
            <translation>S t2t − S 交错式</translation>
        </message>
        <message>
            <source>cosine</source>
            <translation>余弦</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
        <message>
            <source>interleaved vs concat similarity (%1): max |diff| = %2 (a channel permutation keeps dot products; table check %3); vs t2t: max |diff| = %4</source>
            <translation>交错式与拼接式的相似度（%1）：max |差| = %2（通道置换不改变点积；编码表核对 %3）；与 t2t 相比：max |差| = %4</translation>
        </message>
    </context>
    <context>
        <name>CurvesView</name>
        <message>
            <source>Dark: sin(p·wᵢ) on channel 2i; light: cos(p·wᵢ) on channel 2i+1. Same frequency, a quarter period apart; higher pairs have longer wavelengths λᵢ = 2π/wᵢ.</source>
            <translation>深色：通道 2i 上的 sin(p·wᵢ)；浅色：通道 2i+1 上的 cos(p·wᵢ)。两者频率相同、相差四分之一周期；序号越大的通道对波长 λᵢ = 2π/wᵢ 越长。</translation>
        </message>
        <message>
            <source>evenly spread pairs</source>
            <translation>均匀分布的频率对</translation>
        </message>
        <message>
            <source>fastest pairs</source>
            <translation>最快的频率对</translation>
        </message>
        <message>
            <source>slowest pairs</source>
            <translation>最慢的频率对</translation>
        </message>
        <message>
            <source>manual</source>
            <translation>手动</translation>
        </message>
        <message>
            <source>pair indices, e.g. 0, 4, 16</source>
            <translation>频率对序号，例如 0, 4, 16</translation>
        </message>
        <message>
            <source>Pairs</source>
            <translation>频率对</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>frequency pair i (each lane spans −1 … 1)</source>
            <translation>频率对 i（每条泳道范围 −1 … 1）</translation>
        </message>
    </context>
    <context>
        <name>DeviceProbe</name>
        <message>
            <source>In use: %1. %2</source>
            <translation>正在使用：%1。%2</translation>
        </message>
        <message>
            <source>torch is not installed, so numpy computes everything on the CPU.</source>
            <translation>未安装 torch，所有计算都由 numpy 在 CPU 上完成。</translation>
        </message>
        <message>
            <source>Chosen in the Device box.</source>
            <translation>在“设备”框中选定。</translation>
        </message>
        <message>
            <source>Found automatically.</source>
            <translation>自动检测到。</translation>
        </message>
        <message>
            <source>The GPU failed, so the CPU is used: %1</source>
            <translation>GPU 出错，改用 CPU：%1</translation>
        </message>
        <message>
            <source>No CUDA or Apple GPU was found.</source>
            <translation>未找到 CUDA 或 Apple GPU。</translation>
        </message>
        <message>
            <source>%1 is not available here, so the CPU is used.</source>
            <translation>此机器上没有 %1，改用 CPU。</translation>
        </message>
    </context>
    <context>
        <name>DistanceView</name>
        <message>
            <source>Score factor against distance k, each scheme scaled to 1 at k = 0: sinusoidal PE(0)·PE(k), RoPE with all-ones q, k, ALiBi's softmax factor exp(−m·k), learned (MiniLM, mean cosine of rows p and p + k) and no positions at all (flat).</source>
            <translation>得分因子随距离 k 的变化，每种方案在 k = 0 处缩放为 1：正弦 PE(0)·PE(k)，全 1 的 q、k 下的 RoPE，ALiBi 的 softmax 因子 exp(−m·k)，可学习位置（MiniLM，第 p 行与第 p + k 行的平均余弦）以及完全没有位置信息（水平线）。</translation>
        </message>
        <message>
            <source>RoPE head_dim</source>
            <translation>RoPE head_dim</translation>
        </message>
        <message>
            <source>RoPE base</source>
            <translation>RoPE 基数</translation>
        </message>
        <message>
            <source>ALiBi heads</source>
            <translation>ALiBi 头数</translation>
        </message>
        <message>
            <source>ALiBi head</source>
            <translation>ALiBi 头</translation>
        </message>
        <message>
            <source>learned (MiniLM)</source>
            <translation>可学习（MiniLM）</translation>
        </message>
        <message>
            <source>distance k</source>
            <translation>距离 k</translation>
        </message>
        <message>
            <source>score factor (1 at k = 0)</source>
            <translation>得分因子（k = 0 时为 1）</translation>
        </message>
        <message>
            <source>sinusoidal</source>
            <translation>正弦</translation>
        </message>
        <message>
            <source>no position</source>
            <translation>无位置信息</translation>
        </message>
        <message>
            <source>RoPE before scaling</source>
            <translation>缩放前的 RoPE</translation>
        </message>
        <message>
            <source>RoPE curve: %1, attention factor² included</source>
            <translation>RoPE 曲线：%1，已乘注意力因子²</translation>
        </message>
        <message>
            <source>max_len %1, d_model %2, base %3 from the shared controls; learned curve stops at MiniLM's 512 positions</source>
            <translation>max_len %1、d_model %2、基数 %3 来自公共控件；可学习曲线止于 MiniLM 的 512 个位置</translation>
        </message>
    </context>
    <context>
        <name>FileActions</name>
        <message>
            <source>&amp;Open scene or deck…</source>
            <translation>打开场景或课件(&amp;O)…</translation>
        </message>
        <message>
            <source>&amp;Save scene…</source>
            <translation>保存场景(&amp;S)…</translation>
        </message>
        <message>
            <source>Export view as &amp;image (PNG/SVG)…</source>
            <translation>将视图导出为图片(&amp;I)（PNG/SVG）…</translation>
        </message>
        <message>
            <source>Export view &amp;data (CSV/NPY)…</source>
            <translation>导出视图数据(&amp;D)（CSV/NPY）…</translation>
        </message>
        <message>
            <source>&amp;Copy view image</source>
            <translation>复制视图图片(&amp;C)</translation>
        </message>
        <message>
            <source>Export full-size &amp;PE table (CSV/NPY)…</source>
            <translation>导出完整位置编码表(&amp;P)（CSV/NPY）…</translation>
        </message>
        <message>
            <source>Export full-size si&amp;milarity matrix (CSV/NPY)…</source>
            <translation>导出完整相似度矩阵(&amp;M)（CSV/NPY）…</translation>
        </message>
        <message>
            <source>PE Explorer</source>
            <translation>位置编码探索器</translation>
        </message>
        <message>
            <source>Open scene or deck</source>
            <translation>打开场景或课件</translation>
        </message>
        <message>
            <source>Scenes (*.json)</source>
            <translation>场景文件 (*.json)</translation>
        </message>
        <message>
            <source>Opened %1</source>
            <translation>已打开 %1</translation>
        </message>
        <message>
            <source>Save scene</source>
            <translation>保存场景</translation>
        </message>
        <message>
            <source>Saved %1</source>
            <translation>已保存 %1</translation>
        </message>
        <message>
            <source>Export view as image</source>
            <translation>将视图导出为图片</translation>
        </message>
        <message>
            <source>PNG image (*.png);;SVG drawing (*.svg)</source>
            <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg)</translation>
        </message>
        <message>
            <source>Resolution</source>
            <translation>分辨率</translation>
        </message>
        <message>
            <source>Dots per inch (96 = screen size)</source>
            <translation>每英寸点数（96 = 屏幕大小）</translation>
        </message>
        <message>
            <source>Export view data</source>
            <translation>导出视图数据</translation>
        </message>
        <message>
            <source>CSV table (*.csv);;NumPy array (*.npy);;All arrays of the view (*.npz)</source>
            <translation>CSV 表格 (*.csv);;NumPy 数组 (*.npy);;该视图的全部数组 (*.npz)</translation>
        </message>
        <message>
            <source>Export full-size table</source>
            <translation>导出完整表格</translation>
        </message>
        <message>
            <source>NumPy array (*.npy);;CSV table (*.csv)</source>
            <translation>NumPy 数组 (*.npy);;CSV 表格 (*.csv)</translation>
        </message>
        <message>
            <source>Writing %1 × %2 values…</source>
            <translation>正在写入 %1 × %2 个数值…</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Export cancelled; nothing was written</source>
            <translation>导出已取消，未写入任何文件</translation>
        </message>
        <message>
            <source>View image copied</source>
            <translation>视图图片已复制</translation>
        </message>
    </context>
    <context>
        <name>FormulaPanel</name>
        <message>
            <source>Code copied to the clipboard</source>
            <translation>代码已复制到剪贴板</translation>
        </message>
        <message>
            <source>Formula and code</source>
            <translation>公式与代码</translation>
        </message>
        <message>
            <source>Formula</source>
            <translation>公式</translation>
        </message>
        <message>
            <source>PyTorch code</source>
            <translation>PyTorch 代码</translation>
        </message>
        <message>
            <source>Copy code</source>
            <translation>复制代码</translation>
        </message>
        <message>
            <source>Runs as is; `result` holds what the view shows.</source>
            <translation>可直接运行；`result` 即视图显示的数据。</translation>
        </message>
    </context>
    <context>
        <name>Formulas</name>
        <message>
            <source>layout</source>
            <translation>通道排列</translation>
        </message>
        <message>
            <source>At</source>
            <translation>在</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>odd d: the last sine channel has no cosine partner</source>
            <translation>d 为奇数：最后一个正弦通道没有配对的余弦</translation>
        </message>
        <message>
            <source>odd d: the last channel is zero padding</source>
            <translation>d 为奇数：最后一个通道补零</translation>
        </message>
        <message>
            <source>pair</source>
            <translation>频率对</translation>
        </message>
        <message>
            <source>wavelength</source>
            <translation>波长</translation>
        </message>
        <message>
            <source>depends only on the offset k = q − p</source>
            <translation>只取决于偏移 k = q − p</translation>
        </message>
        <message>
            <source>tokens</source>
            <translation>词元</translation>
        </message>
        <message>
            <source>E[id] is multiplied by √d</source>
            <translation>E[id] 乘以 √d</translation>
        </message>
        <message>
            <source>no √d scaling</source>
            <translation>不乘 √d</translation>
        </message>
        <message>
            <source>shortest</source>
            <translation>最短</translation>
        </message>
        <message>
            <source>longest</source>
            <translation>最长</translation>
        </message>
        <message>
            <source>pairs longer than max_len</source>
            <translation>波长超过 max_len 的频率对</translation>
        </message>
        <message>
            <source>one 2×2 rotation per frequency, independent of p</source>
            <translation>每个频率一个 2×2 旋转，与 p 无关</translation>
        </message>
        <message>
            <source>heads</source>
            <translation>头数</translation>
        </message>
        <message>
            <source>each channel pair is rotated by its position; the score depends only on m − n</source>
            <translation>每对通道按位置旋转；得分只取决于 m − n</translation>
        </message>
        <message>
            <source>no position vectors: a fixed penalty per distance (other head counts: the authors' rule)</source>
            <translation>没有位置向量：按距离施加固定惩罚（头数非 2 的幂时按作者代码的规则）</translation>
        </message>
        <message>
            <source>P is a trained table (MiniLM: 512 × 384)</source>
            <translation>P 是训练得到的表（MiniLM：512 × 384）</translation>
        </message>
        <message>
            <source>This view compares variants built on the sinusoidal PE below.</source>
            <translation>此视图比较基于下面正弦位置编码的几种变体。</translation>
        </message>
        <message>
            <source>trained MiniLM: word + learned position + token type</source>
            <translation>训练好的 MiniLM：词向量 + 学到的位置 + 句段类型</translation>
        </message>
    </context>
    <context>
        <name>FrequenciesView</name>
        <message>
            <source>wᵢ = base^(−2i/d) falls geometrically, so on a log axis it is a straight line; its wavelength 2π/wᵢ runs from 2π to about 2π·base. Pairs above the max_len line never complete one period inside the table.</source>
            <translation>wᵢ = base^(−2i/d) 按几何级数下降，所以在对数坐标上是一条直线；波长 2π/wᵢ 从 2π 增长到约 2π·base。高于 max_len 线的通道对在编码表内连一个周期都走不完。</translation>
        </message>
        <message>
            <source>also RoPE's θᵢ before / after its rope type (set by a preset)</source>
            <translation>同时显示 RoPE 的 θᵢ（rope 类型缩放前 / 后，由预设设置）</translation>
        </message>
        <message>
            <source>frequency pair i</source>
            <translation>频率对 i</translation>
        </message>
        <message>
            <source>value (log scale)</source>
            <translation>数值（对数坐标）</translation>
        </message>
        <message>
            <source>wᵢ (radians per position)</source>
            <translation>wᵢ（每个位置的弧度）</translation>
        </message>
        <message>
            <source>wavelength 2π/wᵢ (positions)</source>
            <translation>波长 2π/wᵢ（位置数）</translation>
        </message>
        <message>
            <source>RoPE pair i</source>
            <translation>RoPE 通道对 i</translation>
        </message>
        <message>
            <source>θᵢ (log scale)</source>
            <translation>θᵢ（对数刻度）</translation>
        </message>
        <message>
            <source>RoPE θᵢ before scaling</source>
            <translation>缩放前的 RoPE θᵢ</translation>
        </message>
        <message>
            <source>RoPE θᵢ after scaling</source>
            <translation>缩放后的 RoPE θᵢ</translation>
        </message>
        <message>
            <source>max_len = %1</source>
            <translation>max_len = %1</translation>
        </message>
        <message>
            <source>%1 pairs; shortest wavelength %2 positions (pair 0), longest %3 positions (pair %4); %5 pairs have wavelengths longer than max_len = %6</source>
            <translation>%1 个频率对；最短波长 %2 个位置（第 0 对），最长 %3 个位置（第 %4 对）；有 %5 对的波长超过 max_len = %6</translation>
        </message>
        <message>
            <source>RoPE: head_dim %1, base %2, %3, %4 pairs, attention factor %5</source>
            <translation>RoPE：head_dim %1，base %2，%3，%4 对，注意力因子 %5</translation>
        </message>
    </context>
    <context>
        <name>GaugePanel</name>
        <message>
            <source>length</source>
            <translation>长度</translation>
        </message>
        <message>
            <source>degrees</source>
            <translation>度</translation>
        </message>
        <message>
            <source>A sinusoidal PE row has length √(d/2). nn.Embedding starts at N(0, 1), so |E| ≈ √d already and ×√d makes PE a small nudge; with small weights (about 1/√d each, e.g. Xavier init) ×√d brings |E| up to the size of PE. Trained MiniLM rows have |E| ≈ 1 and no scaling.</source>
            <translation>正弦位置编码每一行的长度是 √(d/2)。nn.Embedding 初始化为 N(0, 1)，|E| 本来就约为 √d，再乘 √d 后 PE 只是微小的扰动；若权重较小（每个元素约 1/√d，例如 Xavier 初始化），乘 √d 正好把 |E| 放大到与 PE 相当。已训练的 MiniLM 行 |E| ≈ 1，且不做缩放。</translation>
        </message>
        <message>
            <source>|position + type|</source>
            <translation>|位置 + 类型|</translation>
        </message>
        <message>
            <source>|learned position|</source>
            <translation>|可学习的位置|</translation>
        </message>
        <message>
            <source>|added position| (RoPE: 0)</source>
            <translation>|所加的位置|（RoPE：0）</translation>
        </message>
        <message>
            <source>lengths</source>
            <translation>长度</translation>
        </message>
        <message>
            <source>with ×√d</source>
            <translation>乘 √d</translation>
        </message>
        <message>
            <source>without ×√d</source>
            <translation>不乘 √d</translation>
        </message>
        <message>
            <source>angle (X, E)</source>
            <translation>夹角 (X, E)</translation>
        </message>
        <message>
            <source>d_model = %1, medians: |E| = %2, |E|·√d = %3, |PE| = %4. PE turns X away from E by %5° with ×√d, by %6° without.</source>
            <translation>d_model = %1，中位数：|E| = %2，|E|·√d = %3，|PE| = %4。乘 √d 时 PE 使 X 偏离 E %5°，不乘时偏离 %6°。</translation>
        </message>
        <message>
            <source>%1 (d_model = %2), medians: |E| = %3, |E|·scale = %4, |position| = %5; position turns X away from E by %6°.</source>
            <translation>%1（d_model = %2），中位数：|E| = %3，|E|·缩放 = %4，|位置| = %5；位置使 X 偏离 E %6°。</translation>
        </message>
        <message>
            <source>Nothing is added at the input: RoPE turns q and k inside attention.</source>
            <translation>输入处什么也不加：RoPE 在注意力内部旋转 q 和 k。</translation>
        </message>
        <message>
            <source>MiniLM does not multiply by √d; a LayerNorm follows the sum.</source>
            <translation>MiniLM 不乘 √d；相加之后接一个 LayerNorm。</translation>
        </message>
    </context>
    <context>
        <name>Glossary</name>
        <message>
            <source>positional encoding</source>
            <translation>位置编码</translation>
        </message>
        <message>
            <source>token</source>
            <translation>词元</translation>
        </message>
        <message>
            <source>token ID</source>
            <translation>词元 ID</translation>
        </message>
        <message>
            <source>embedding</source>
            <translation>嵌入</translation>
        </message>
        <message>
            <source>token embedding</source>
            <translation>词元嵌入</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>dimension</source>
            <translation>维度</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>heatmap</source>
            <translation>热力图</translation>
        </message>
        <message>
            <source>curves</source>
            <translation>曲线</translation>
        </message>
        <message>
            <source>similarity</source>
            <translation>相似度</translation>
        </message>
        <message>
            <source>cosine similarity</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
        <message>
            <source>sine</source>
            <translation>正弦</translation>
        </message>
        <message>
            <source>cosine</source>
            <translation>余弦</translation>
        </message>
        <message>
            <source>frequency</source>
            <translation>频率</translation>
        </message>
        <message>
            <source>wavelength</source>
            <translation>波长</translation>
        </message>
        <message>
            <source>base</source>
            <translation>基数</translation>
        </message>
        <message>
            <source>model dimension (d_model)</source>
            <translation>模型维度 (d_model)</translation>
        </message>
        <message>
            <source>maximum length (max_len)</source>
            <translation>最大长度 (max_len)</translation>
        </message>
        <message>
            <source>offset</source>
            <translation>偏移量</translation>
        </message>
        <message>
            <source>layout</source>
            <translation>布局</translation>
        </message>
        <message>
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>concatenated</source>
            <translation>拼接</translation>
        </message>
        <message>
            <source>rotation</source>
            <translation>旋转</translation>
        </message>
        <message>
            <source>learned positions</source>
            <translation>可学习的位置嵌入</translation>
        </message>
        <message>
            <source>rotary position embedding (RoPE)</source>
            <translation>旋转位置编码 (RoPE)</translation>
        </message>
        <message>
            <source>one-hot</source>
            <translation>独热</translation>
        </message>
        <message>
            <source>tokenizer</source>
            <translation>分词器</translation>
        </message>
        <message>
            <source>vocabulary</source>
            <translation>词表</translation>
        </message>
        <message>
            <source>sentence</source>
            <translation>句子</translation>
        </message>
        <message>
            <source>presentation mode</source>
            <translation>演示模式</translation>
        </message>
        <message>
            <source>scene</source>
            <translation>场景</translation>
        </message>
        <message>
            <source>deck</source>
            <translation>幻灯片组</translation>
        </message>
        <message>
            <source>export</source>
            <translation>导出</translation>
        </message>
        <message>
            <source>language</source>
            <translation>语言</translation>
        </message>
    </context>
    <context>
        <name>HeatmapView</name>
        <message>
            <source>Each row is one position's encoding vector; each column one channel. Left channels oscillate fast (short wavelength), right channels slowly: a multi-scale ruler.</source>
            <translation>每一行是一个位置的编码向量，每一列是一个通道。左侧通道振荡快（波长短），右侧通道振荡慢：一把多尺度的尺子。</translation>
        </message>
        <message>
            <source>channel (dimension index)</source>
            <translation>通道（维度序号）</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>position %1, channel %2: PE = %3   w = %4   wavelength 2π/w = %5 positions</source>
            <translation>位置 %1，通道 %2：PE = %3   w = %4   波长 2π/w = %5 个位置</translation>
        </message>
        <message>
            <source>position %1, channel %2: PE ≈ %3 (mean of the drawn block)   w = %4   wavelength 2π/w = %5 positions</source>
            <translation>位置 %1，通道 %2：PE ≈ %3（所画方块的平均值）   w = %4   波长 2π/w = %5 个位置</translation>
        </message>
    </context>
    <context>
        <name>LearnedView</name>
        <message>
            <source>Left: a trained table of learned position embeddings (the opened model's, else MiniLM's). Right: sinusoidal PE at the same d (computed). Middle: cosine similarity of every pair of positions; sinusoidal similarity depends only on the offset (constant diagonals), and a learned table stops where training stopped. Bottom: every position row projected on its table's first principal components (PCA), coloured by position.</source>
            <translation>左：训练得到的可学习位置嵌入表（已打开模型的，否则为 MiniLM 的）。右：相同 d 下的正弦位置编码（公式计算）。中：每对位置之间的余弦相似度；正弦编码的相似度只取决于偏移量（每条对角线取值相同），可学习的表止于训练时的长度。下：每个位置行投影到该表的前几个主成分上（PCA），按位置着色。</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>position q</source>
            <translation>位置 q</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>sinusoidal PE, d = %1, base %2, %3</source>
            <translation>正弦位置编码，d = %1，基数 %2，%3</translation>
        </message>
        <message>
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>concat</source>
            <translation>拼接</translation>
        </message>
        <message>
            <source>cosine similarity, sinusoidal</source>
            <translation>余弦相似度，正弦编码</translation>
        </message>
        <message>
            <source>MiniLM's learned positions are not installed, so only the sinusoidal side is shown. Install them with: %1</source>
            <translation>未安装 MiniLM 的可学习位置嵌入，因此只显示正弦编码一侧。安装命令：%1</translation>
        </message>
        <message>
            <source>learned positions: not installed</source>
            <translation>可学习的位置嵌入：未安装</translation>
        </message>
        <message>
            <source>learned positions (%1, %2 × %3)</source>
            <translation>可学习的位置嵌入（%1，%2 × %3）</translation>
        </message>
        <message>
            <source>Learned table colours span ±%1, the 99.5th percentile of |value|: a few channels reach %2 and would wash the picture out.</source>
            <translation>可学习位置表的色标范围为 ±%1，即 |值| 的第 99.5 百分位数：少数通道的值高达 %2，若按最大值着色，整张图会褪成一片。</translation>
        </message>
        <message>
            <source>The first %1 of its %2 positions are shown.</source>
            <translation>显示其 %2 个位置中的前 %1 个。</translation>
        </message>
        <message>
            <source>%1 has no learned position table (RoPE acts inside attention): showing MiniLM's.</source>
            <translation>%1 没有可学习的位置表（RoPE 在注意力内部起作用）：改为显示 MiniLM 的。</translation>
        </message>
        <message>
            <source>cosine similarity, learned</source>
            <translation>余弦相似度，可学习位置嵌入</translation>
        </message>
        <message>
            <source>learned</source>
            <translation>可学习</translation>
        </message>
        <message>
            <source>sinusoidal</source>
            <translation>正弦</translation>
        </message>
        <message>
            <source>p = %1, q = %2 (offset %3): cosine learned %4, sinusoidal %5</source>
            <translation>p = %1，q = %2（偏移量 %3）：余弦相似度 可学习 %4，正弦 %5</translation>
        </message>
    </context>
    <context>
        <name>Lecture</name>
        <message>
            <source>&amp;Lesson</source>
            <translation>课程(&amp;L)</translation>
        </message>
        <message>
            <source>Start built-in lesson</source>
            <translation>开始内置课程</translation>
        </message>
        <message>
            <source>Next scene</source>
            <translation>下一个场景</translation>
        </message>
        <message>
            <source>Previous scene</source>
            <translation>上一个场景</translation>
        </message>
        <message>
            <source>Show caption bar</source>
            <translation>显示字幕栏</translation>
        </message>
        <message>
            <source>Hide plot behind a question card</source>
            <translation>用问题卡片遮住图</translation>
        </message>
        <message>
            <source>Play / pause animation</source>
            <translation>播放 / 暂停动画</translation>
        </message>
        <message>
            <source>Show animation controls</source>
            <translation>显示动画控件</translation>
        </message>
        <message>
            <source>Formula and code panel</source>
            <translation>公式与代码面板</translation>
        </message>
        <message>
            <source>Formula and code</source>
            <translation>公式与代码</translation>
        </message>
        <message>
            <source>Lesson</source>
            <translation>课程</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>PE Explorer: token embeddings + positional encodings</source>
            <translation>PE Explorer：词元嵌入 + 位置编码</translation>
        </message>
        <message>
            <source>Controls</source>
            <translation>控制面板</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>Device: checking…</source>
            <translation>设备：检测中…</translation>
        </message>
        <message>
            <source>Saved settings were unreadable; defaults restored</source>
            <translation>保存的设置无法读取，已恢复默认值</translation>
        </message>
        <message>
            <source>Settings reset to defaults</source>
            <translation>设置已恢复为默认值</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>Next view</source>
            <translation>下一个视图</translation>
        </message>
        <message>
            <source>Previous view</source>
            <translation>上一个视图</translation>
        </message>
        <message>
            <source>&amp;Reset settings</source>
            <translation>重置设置(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Settings</source>
            <translation>设置(&amp;S)</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>Heatmap</source>
            <translation>热力图</translation>
        </message>
        <message>
            <source>Curves</source>
            <translation>曲线</translation>
        </message>
        <message>
            <source>Similarity</source>
            <translation>相似度</translation>
        </message>
        <message>
            <source>Learned</source>
            <translation>可学习</translation>
        </message>
        <message>
            <source>Layouts</source>
            <translation>布局</translation>
        </message>
        <message>
            <source>Offset</source>
            <translation>偏移量</translation>
        </message>
        <message>
            <source>Distance</source>
            <translation>距离</translation>
        </message>
        <message>
            <source>Real RoPE</source>
            <translation>真实 RoPE</translation>
        </message>
        <message>
            <source>Check</source>
            <translation>检查</translation>
        </message>
    </context>
    <context>
        <name>ModelActions</name>
        <message>
            <source>Open &amp;model…</source>
            <translation>打开模型(&amp;M)…</translation>
        </message>
        <message>
            <source>Open model &amp;folder…</source>
            <translation>打开模型文件夹(&amp;F)…</translation>
        </message>
        <message>
            <source>Mo&amp;del</source>
            <translation>模型(&amp;D)</translation>
        </message>
        <message>
            <source>SmolLM2-135M (shipped, RoPE)</source>
            <translation>SmolLM2-135M（随附，RoPE）</translation>
        </message>
        <message>
            <source>all-MiniLM-L6-v2 (shipped, learned positions)</source>
            <translation>all-MiniLM-L6-v2（随附，可学习的位置）</translation>
        </message>
        <message>
            <source>&amp;No model (untrained table)</source>
            <translation>不用模型（未训练的表）(&amp;N)</translation>
        </message>
        <message>
            <source>Open model: a .gguf file, or a file of a Hugging Face folder</source>
            <translation>打开模型：一个 .gguf 文件，或 Hugging Face 文件夹中的一个文件</translation>
        </message>
        <message>
            <source>Models (%1);;All files (*)</source>
            <translation>模型 (%1);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Open a Hugging Face model folder</source>
            <translation>打开 Hugging Face 模型文件夹</translation>
        </message>
        <message>
            <source>Opening %1… (reading headers only)</source>
            <translation>正在打开 %1…（只读取文件头）</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Open model</source>
            <translation>打开模型</translation>
        </message>
        <message>
            <source>Opening the model was cancelled; nothing changed</source>
            <translation>已取消打开模型；什么都没有改变</translation>
        </message>
        <message>
            <source>Cannot open the model: %1</source>
            <translation>无法打开模型：%1</translation>
        </message>
        <message>
            <source>learned positions (%1)</source>
            <translation>可学习的位置（%1）</translation>
        </message>
        <message>
            <source>RoPE base %1</source>
            <translation>RoPE 基数 %1</translation>
        </message>
        <message>
            <source>Opened model %1 (%2, d = %3, %4 heads, %5)</source>
            <translation>已打开模型 %1（%2，d = %3，%4 个头，%5）</translation>
        </message>
    </context>
    <context>
        <name>OffsetView</name>
        <message>
            <source>PE(p + k) = R(k)·PE(p): shifting by k is one fixed rotation (a 2×2 block per frequency, interleaved order) that does not depend on p, so PE(p)·PE(p + k) depends only on k.</source>
            <translation>PE(p + k) = R(k)·PE(p)：平移 k 就是一个固定的旋转（每个频率一个 2×2 块，交错顺序），与 p 无关，所以 PE(p)·PE(p + k) 只取决于 k。</translation>
        </message>
        <message>
            <source>offset k</source>
            <translation>偏移 k</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>R(k)</source>
            <translation>R(k)</translation>
        </message>
        <message>
            <source>value</source>
            <translation>数值</translation>
        </message>
        <message>
            <source>PE(p + k) and R(k)·PE(p), float32</source>
            <translation>PE(p + k) 与 R(k)·PE(p)，float32</translation>
        </message>
        <message>
            <source>the first p as a line, the others as markers: they land on it</source>
            <translation>第一个 p 画成线，其余 p 画成标记：标记都落在线上</translation>
        </message>
        <message>
            <source>R(k), k = %1</source>
            <translation>R(k)，k = %1</translation>
        </message>
        <message>
            <source>R(k), k = %1: channels 0 … %2 of %3</source>
            <translation>R(k)，k = %1：%3 个通道中的第 0 … %2 个</translation>
        </message>
        <message>
            <source>p = %1, k = %2: max error %3 (float32)</source>
            <translation>p = %1，k = %2：最大误差 %3（float32）</translation>
        </message>
        <message>
            <source>p = %1, k = %2: max error %3 (float32, all channels; first %4 drawn)</source>
            <translation>p = %1，k = %2：最大误差 %3（float32，全部通道；只画出前 %4 个）</translation>
        </message>
        <message>
            <source>max |PE(p + k) − R(k)·PE(p)| = %1 in float32; largest gap between the curves for different p: %2</source>
            <translation>float32 下 max |PE(p + k) − R(k)·PE(p)| = %1；不同 p 的曲线之间的最大差距：%2</translation>
        </message>
    </context>
    <context>
        <name>PcaRow</name>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>%1: not available</source>
            <translation>%1：不可用</translation>
        </message>
        <message>
            <source>%1: PC%2 × PC%3&lt;br&gt;(%4% + %5% of the variance)</source>
            <translation>%1：PC%2 × PC%3&lt;br&gt;（占方差的 %4% + %5%）</translation>
        </message>
    </context>
    <context>
        <name>PrecisionView</name>
        <message>
            <source>‖PE(p+1) − PE(p)‖ after building the table in each precision. Where it drops to 0 two neighbouring positions get the same encoding (bfloat16 from p = 256, float16 from 2048). Positions beyond the training length are greyed.</source>
            <translation>在各精度下构建编码表后的 ‖PE(p+1) − PE(p)‖。降到 0 的地方，相邻两个位置得到相同的编码（bfloat16 从 p = 256 起，float16 从 2048 起）。超出训练长度的位置显示为灰色。</translation>
        </message>
        <message>
            <source>train max_len</source>
            <translation>训练 max_len</translation>
        </message>
        <message>
            <source>positions shown</source>
            <translation>显示的位置数</translation>
        </message>
        <message>
            <source>max_len</source>
            <translation>max_len</translation>
        </message>
        <message>
            <source>table</source>
            <translation>编码表</translation>
        </message>
        <message>
            <source>computed in the dtype</source>
            <translation>用该精度计算</translation>
        </message>
        <message>
            <source>float64 table stored in the dtype</source>
            <translation>float64 编码表以该精度存储</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>exact (float64)</source>
            <translation>精确值（float64）</translation>
        </message>
        <message>
            <source>none shown (from %1)</source>
            <translation>图中没有（从 %1 起）</translation>
        </message>
        <message>
            <source>(%1 of %2 positions drawn, each collision point among them)</source>
            <translation>（画出 %2 个位置中的 %1 个，每个碰撞点都在其中）</translation>
        </message>
        <message>
            <source>first position whose neighbour rounds to the same encoding: </source>
            <translation>相邻位置舍入成相同编码的第一个位置：</translation>
        </message>
    </context>
    <context>
        <name>Presenter</name>
        <message>
            <source>&amp;Presentation</source>
            <translation>演示(&amp;P)</translation>
        </message>
        <message>
            <source>Presentation mode (full screen)</source>
            <translation>演示模式（全屏）</translation>
        </message>
        <message>
            <source>Larger text and lines</source>
            <translation>放大文字和线条</translation>
        </message>
        <message>
            <source>Smaller text and lines</source>
            <translation>缩小文字和线条</translation>
        </message>
        <message>
            <source>High contrast</source>
            <translation>高对比度</translation>
        </message>
        <message>
            <source>Scale %1×</source>
            <translation>缩放 %1×</translation>
        </message>
    </context>
    <context>
        <name>QkView</name>
        <message>
            <source>A real model's first layer: x_m (the input X of the Tokens view) goes through the input norm and W_q, W_k (biases or q/k norms as the model has them); RoPE turns each channel pair of q(m) and k(n) by m·θᵢ and n·θᵢ with the model's own θ, so the logit q(m)·k(n)/√head_dim sees only m − n of the positions. Without rotation, the same weights see no position at all.</source>
            <translation>真实模型的第一层：x_m（即“词元”视图中的输入 X）经过输入归一化和 W_q、W_k（按模型所具有的偏置或 q/k 归一化）；RoPE 用模型自己的 θ 把 q(m) 和 k(n) 的每个通道对分别旋转 m·θᵢ 和 n·θᵢ，因此 logit q(m)·k(n)/√head_dim 只看到位置之差 m − n。不旋转时，同样的权重完全看不到位置。</translation>
        </message>
        <message>
            <source>head</source>
            <translation>头</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>key n</source>
            <translation>键 n</translation>
        </message>
        <message>
            <source>query m</source>
            <translation>查询 m</translation>
        </message>
        <message>
            <source>mean logit</source>
            <translation>平均 logit</translation>
        </message>
        <message>
            <source>with RoPE</source>
            <translation>含 RoPE</translation>
        </message>
        <message>
            <source>without rotation</source>
            <translation>不旋转</translation>
        </message>
        <message>
            <source>%1 has learned positions, no RoPE: showing SmolLM2-135M instead.</source>
            <translation>%1 使用可学习的位置，没有 RoPE：改为显示 SmolLM2-135M。</translation>
        </message>
        <message>
            <source>%1 could not be read: showing SmolLM2-135M instead. (%2)</source>
            <translation>无法读取 %1：改为显示 SmolLM2-135M。（%2）</translation>
        </message>
        <message>
            <source>of %1 (reads kv head %2 of %3) · %4</source>
            <translation>共 %1 个（读取 %3 个 kv 头中的第 %2 个）· %4</translation>
        </message>
        <message>
            <source>q(m) after RoPE, head %1</source>
            <translation>RoPE 之后的 q(m)，头 %1</translation>
        </message>
        <message>
            <source>k(n) after RoPE</source>
            <translation>RoPE 之后的 k(n)</translation>
        </message>
        <message>
            <source>logits q(m)·k(n)/√%1, with RoPE</source>
            <translation>logit q(m)·k(n)/√%1，含 RoPE</translation>
        </message>
        <message>
            <source>the same without rotation</source>
            <translation>同样的权重，不旋转</translation>
        </message>
        <message>
            <source>mean logit against distance m − n (pairs with the same m − n)</source>
            <translation>平均 logit 随距离 m − n 的变化（对 m − n 相同的位置对取平均）</translation>
        </message>
        <message>
            <source>%1 tokens</source>
            <translation>%1 个词元</translation>
        </message>
        <message>
            <source>the first %1 of %2 tokens</source>
            <translation>%2 个词元中的前 %1 个</translation>
        </message>
        <message>
            <source>%1: layer 0, %2 heads, head_dim %3, RoPE base %4; %5</source>
            <translation>%1：第 0 层，%2 个头，head_dim %3，RoPE 基数 %4；%5</translation>
        </message>
        <message>
            <source>query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with RoPE, %7 without</source>
            <translation>查询 %1“%2”，键 %3“%4”（m − n = %5）：含 RoPE 的 logit %6，不旋转 %7</translation>
        </message>
    </context>
    <context>
        <name>QuestionCard</name>
        <message>
            <source>Predict first</source>
            <translation>先预测</translation>
        </message>
        <message>
            <source>What will this plot show? Say it out loud, then reveal.</source>
            <translation>这张图会显示什么？先说出你的预测，再揭晓。</translation>
        </message>
        <message>
            <source>Press R or Enter, or click, to reveal</source>
            <translation>按 R 或回车键，或单击，揭晓答案</translation>
        </message>
    </context>
    <context>
        <name>RopeScaling</name>
        <message>
            <source>extrapolated</source>
            <translation>外推</translation>
        </message>
        <message>
            <source>between</source>
            <translation>过渡</translation>
        </message>
        <message>
            <source>interpolated</source>
            <translation>内插</translation>
        </message>
        <message>
            <source>rescaled</source>
            <translation>逐对重缩放</translation>
        </message>
        <message>
            <source>factor</source>
            <translation>因子</translation>
        </message>
        <message>
            <source>context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>rotary</source>
            <translation>旋转比例</translation>
        </message>
        <message>
            <source>length</source>
            <translation>长度</translation>
        </message>
        <message>
            <source>low</source>
            <translation>低</translation>
        </message>
        <message>
            <source>high</source>
            <translation>高</translation>
        </message>
        <message>
            <source>original_max_position_embeddings: the pre-training context L₀</source>
            <translation>original_max_position_embeddings：预训练上下文 L₀</translation>
        </message>
        <message>
            <source>max_position_embeddings: the context the model claims</source>
            <translation>max_position_embeddings：模型声称的上下文长度</translation>
        </message>
        <message>
            <source>partial_rotary_factor: the fraction of head_dim that rotates</source>
            <translation>partial_rotary_factor：head_dim 中旋转的比例</translation>
        </message>
        <message>
            <source>the current sequence length (dynamic NTK rescales when it passes L₀)</source>
            <translation>当前序列长度（超过 L₀ 时动态 NTK 重新缩放）</translation>
        </message>
        <message>
            <source>pair i</source>
            <translation>通道对 i</translation>
        </message>
        <message>
            <source>θᵢ (radians per position, log)</source>
            <translation>θᵢ（每个位置的弧度，对数）</translation>
        </message>
        <message>
            <source>wavelength 2π/θᵢ (positions, log)</source>
            <translation>波长 2π/θᵢ（位置数，对数）</translation>
        </message>
        <message>
            <source>extended</source>
            <translation>扩展后</translation>
        </message>
        <message>
            <source>channel (pairing, rotary fraction)</source>
            <translation>通道（配对、旋转比例）</translation>
        </message>
        <message>
            <source>not rotated</source>
            <translation>不旋转</translation>
        </message>
        <message>
            <source>after</source>
            <translation>之后</translation>
        </message>
        <message>
            <source>before</source>
            <translation>之前</translation>
        </message>
        <message>
            <source>distance m − n</source>
            <translation>距离 m − n</translation>
        </message>
        <message>
            <source>after (%1)</source>
            <translation>之后（%1）</translation>
        </message>
        <message>
            <source>each pair against the context: </source>
            <translation>各通道对与上下文相比：</translation>
        </message>
        <message>
            <source>log₁₀ θ per channel (%1 pairs)</source>
            <translation>每个通道的 log₁₀ θ（%1 配对）</translation>
        </message>
        <message>
            <source>%1 channels not rotated (grey)</source>
            <translation>%1 个通道不旋转（灰色）</translation>
        </message>
        <message>
            <source>attention factor %1</source>
            <translation>注意力因子 %1</translation>
        </message>
        <message>
            <source>rope type %1, factor %2, context %3, attention factor %4; %5 of %6 channels rotate (%7 pairs: %8)</source>
            <translation>rope 类型 %1，因子 %2，上下文 %3，注意力因子 %4；%6 个通道中 %5 个旋转（%7 对：%8）</translation>
        </message>
    </context>
    <context>
        <name>RopeView</name>
        <message>
            <source>RoPE rotates each channel pair of q and k by position × θᵢ, so q(m)·k(n) depends only on m − n. RoFormer pairs channels (2i, 2i+1); LLaMA-style rotate-half pairs (i, i + d/2): the same maths with channels permuted by P. Long-context models rescale θᵢ (rope type).</source>
            <translation>RoPE 把 q 和 k 的每个通道对旋转 位置 × θᵢ，所以 q(m)·k(n) 只取决于 m − n。RoFormer 把通道 (2i, 2i+1) 配对；LLaMA 式 rotate-half 把 (i, i + d/2) 配对：数学相同，只是通道经 P 置换。长上下文模型会重新缩放 θᵢ（rope 类型）。</translation>
        </message>
        <message>
            <source>head_dim</source>
            <translation>head_dim</translation>
        </message>
        <message>
            <source>RoPE base</source>
            <translation>RoPE 基数</translation>
        </message>
        <message>
            <source>pairing</source>
            <translation>配对方式</translation>
        </message>
        <message>
            <source>interleaved (RoFormer)</source>
            <translation>交错式（RoFormer）</translation>
        </message>
        <message>
            <source>rotate-half (LLaMA-style)</source>
            <translation>前后半配对（LLaMA 风格）</translation>
        </message>
        <message>
            <source>rope type</source>
            <translation>rope 类型</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
        </message>
        <message>
            <source>linear (position interpolation)</source>
            <translation>线性（位置插值）</translation>
        </message>
        <message>
            <source>dynamic NTK</source>
            <translation>动态 NTK</translation>
        </message>
        <message>
            <source>extension factor s</source>
            <translation>扩展倍数 s</translation>
        </message>
        <message>
            <source>Rotation and pairing</source>
            <translation>旋转与配对</translation>
        </message>
        <message>
            <source>Scaling (rope type)</source>
            <translation>缩放（rope 类型）</translation>
        </message>
        <message>
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>position</source>
            <translation>位置</translation>
        </message>
        <message>
            <source>rotated q (random vector)</source>
            <translation>旋转后的 q（随机向量）</translation>
        </message>
        <message>
            <source>rotated k (random vector)</source>
            <translation>旋转后的 k（随机向量）</translation>
        </message>
        <message>
            <source>rotate-half channel</source>
            <translation>前后半配对通道</translation>
        </message>
        <message>
            <source>interleaved channel</source>
            <translation>交错式通道</translation>
        </message>
        <message>
            <source>P: x_half = x_interleaved · P</source>
            <translation>P：x_half = x_interleaved · P</translation>
        </message>
        <message>
            <source>score against distance</source>
            <translation>得分随距离的变化</translation>
        </message>
        <message>
            <source>all-ones q, k</source>
            <translation>全 1 的 q、k</translation>
        </message>
        <message>
            <source>random q, k</source>
            <translation>随机的 q、k</translation>
        </message>
        <message>
            <source>score (all-ones)</source>
            <translation>得分（全 1 向量）</translation>
        </message>
        <message>
            <source>context extension by s</source>
            <translation>上下文扩展 s 倍</translation>
        </message>
        <message>
            <source>original θ</source>
            <translation>原始 θ</translation>
        </message>
        <message>
            <source>position interpolation θ/s</source>
            <translation>位置插值 θ/s</translation>
        </message>
        <message>
            <source>NTK-aware base</source>
            <translation>NTK 感知基数</translation>
        </message>
        <message>
            <source>head_dim %1, base %2, pairing %3; s = %4: interpolation divides θ by s, NTK-aware uses base %5 (fastest pair unchanged, slowest θ/s)</source>
            <translation>head_dim %1，基数 %2，配对方式 %3；s = %4：位置插值把 θ 除以 s，NTK 感知改用基数 %5（最快的一对不变，最慢的一对为 θ/s）</translation>
        </message>
        <message>
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>rotate-half</source>
            <translation>前后半配对</translation>
        </message>
    </context>
    <context>
        <name>SimilarityView</name>
        <message>
            <source>S[p, q] = PE(p)·PE(q). Every diagonal is constant: the similarity depends only on the offset k = q − p, shown on the right as f(k) = Σᵢ cos(k·wᵢ).</source>
            <translation>S[p, q] = PE(p)·PE(q)。每条对角线上的值都相同：相似度只取决于偏移量 k = q − p，右侧显示为 f(k) = Σᵢ cos(k·wᵢ)。</translation>
        </message>
        <message>
            <source>position q</source>
            <translation>位置 q</translation>
        </message>
        <message>
            <source>position p</source>
            <translation>位置 p</translation>
        </message>
        <message>
            <source>offset k = q − p</source>
            <translation>偏移量 k = q − p</translation>
        </message>
        <message>
            <source>cosine similarity</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot product</source>
            <translation>点积</translation>
        </message>
        <message>
            <source>f(k) / %1 (1 at k = 0)</source>
            <translation>f(k) / %1（k = 0 时为 1）</translation>
        </message>
        <message>
            <source>p = %1, q = %2, offset k = %3: %4 = %5</source>
            <translation>p = %1，q = %2，偏移量 k = %3：%4 = %5</translation>
        </message>
        <message>
            <source>p = %1, q = %2, offset k = %3: %4 ≈ %5 (mean of the drawn block)</source>
            <translation>p = %1，q = %2，偏移 k = %3：%4 ≈ %5（所画方块的平均值）</translation>
        </message>
    </context>
    <context>
        <name>SliderRow</name>
        <message>
            <source>“%1” is not a number</source>
            <translation>“%1” 不是数字</translation>
        </message>
        <message>
            <source>“%1” is not a whole number</source>
            <translation>“%1” 不是整数</translation>
        </message>
        <message>
            <source>%1 is outside the allowed range %2 – %3; kept %4</source>
            <translation>%1 超出允许范围 %2 – %3；保留 %4</translation>
        </message>
    </context>
    <context>
        <name>TokensView</name>
        <message>
            <source>Nothing to show: %1</source>
            <translation>无法显示：%1</translation>
        </message>
        <message>
            <source>The text has %1 tokens but the position table stops at max_len = %2. As the seeds say, either extend the table (raise max_len) or stop the sequence (shorten the text). Shown: the first %3 tokens only.</source>
            <translation>文本有 %1 个词元，但位置编码表在 max_len = %2 处截止。按讲义的说法，要么扩展编码表（调大 max_len），要么截止序列（缩短文本）。当前只显示前 %3 个词元。</translation>
        </message>
        <message>
            <source>The text has %1 tokens but %4 learned only %2 positions. A learned table cannot be extended without training, so the sequence must stop here. Shown: the first %3 tokens only.</source>
            <translation>文本有 %1 个词元，但 %4 只学习了 %2 个位置。可学习的表不经训练无法扩展，因此序列必须在此停止。只显示前 %3 个词元。</translation>
        </message>
        <message>
            <source>The text has %1 tokens but MiniLM learned only %2 positions. A learned table cannot be extended without training, so the sequence must stop here. Shown: the first %3 tokens only.</source>
            <translation>文本有 %1 个词元，但 MiniLM 只学到了 %2 个位置。可学习的位置表不重新训练就无法扩展，所以序列只能在此截止。当前只显示前 %3 个词元。</translation>
        </message>
        <message>
            <source>The text has %1 tokens; this view shows the first %2.</source>
            <translation>文本有 %1 个词元；本视图只显示前 %2 个。</translation>
        </message>
        <message>
            <source>MiniLM has rows only for WordPiece IDs, so the text was cut with WordPiece.</source>
            <translation>MiniLM 只有 WordPiece ID 对应的行，因此这段文本用 WordPiece 切分。</translation>
        </message>
        <message>
            <source>E[ids] × √d = %1</source>
            <translation>E[ids] × √d = %1</translation>
        </message>
        <message>
            <source>E[ids] (not scaled)</source>
            <translation>E[ids]（未缩放）</translation>
        </message>
        <message>
            <source>nothing added (RoPE)</source>
            <translation>什么也不加（RoPE）</translation>
        </message>
        <message>
            <source>learned position + token type</source>
            <translation>可学习位置嵌入 + 片段类型嵌入</translation>
        </message>
        <message>
            <source>positions[2 … %1] (offset 2)</source>
            <translation>位置[2 … %1]（偏移 2）</translation>
        </message>
        <message>
            <source>learned positions[0 … %1]</source>
            <translation>可学习的位置[0 … %1]</translation>
        </message>
        <message>
            <source>X = LayerNorm(sum)</source>
            <translation>X = LayerNorm(和)</translation>
        </message>
        <message>
            <source>X into layer 0</source>
            <translation>X，第 0 层的输入</translation>
        </message>
        <message>
            <source>: own scale ±%1</source>
            <translation>：独立色标 ±%1</translation>
        </message>
        <message>
            <source>opened model: %1</source>
            <translation>已打开的模型：%1</translation>
        </message>
        <message>
            <source>a model (File → Open model…)</source>
            <translation>模型（文件 → 打开模型…）</translation>
        </message>
        <message>
            <source>Open a model first: File → Open model…</source>
            <translation>请先打开模型：文件 → 打开模型…</translation>
        </message>
        <message>
            <source>%1's own tokenizer and rows; X is exactly what its first layer receives.</source>
            <translation>%1 自己的分词器和嵌入行；X 正是其第一层收到的输入。</translation>
        </message>
        <message>
            <source>%1 adds nothing for position at the input: position enters inside attention, where RoPE rotates q and k (see the “RoPE, real weights” view).</source>
            <translation>%1 在输入处不为位置加任何东西：位置在注意力内部进入，由 RoPE 旋转 q 和 k（见“RoPE（真实权重）”视图）。</translation>
        </message>
        <message>
            <source>Text → tokens → token IDs → rows of the embedding table E → X = E[ids]·√d_model + PE, the first layer's input. Looking a row up is the same as multiplying a one-hot matrix by E.</source>
            <translation>文本 → 词元 → 词元 ID → 嵌入矩阵 E 的行 → X = E[ids]·√d_model + PE，即第一层的输入。查表取一行，等同于用独热矩阵乘以 E。</translation>
        </message>
        <message>
            <source>Type a sentence: English, 中文, mixed, emoji …</source>
            <translation>输入一句话：English、中文、中英混合、表情符号……</translation>
        </message>
        <message>
            <source>Tokenizer</source>
            <translation>分词器</translation>
        </message>
        <message>
            <source>Embedding table</source>
            <translation>嵌入矩阵</translation>
        </message>
        <message>
            <source>× √d_model</source>
            <translation>× √d_model</translation>
        </message>
        <message>
            <source>cl100k_base BPE (GPT-4)</source>
            <translation>cl100k_base BPE（GPT-4）</translation>
        </message>
        <message>
            <source>WordPiece (BERT, MiniLM)</source>
            <translation>WordPiece（BERT、MiniLM）</translation>
        </message>
        <message>
            <source>characters</source>
            <translation>逐字符</translation>
        </message>
        <message>
            <source>Qwen2.5 BPE (Chinese-friendly)</source>
            <translation>Qwen2.5 BPE（适合中文）</translation>
        </message>
        <message>
            <source>trained all-MiniLM-L6-v2 (d = 384)</source>
            <translation>已训练的 all-MiniLM-L6-v2（d = 384）</translation>
        </message>
        <message>
            <source>Lookup: one-hot × E</source>
            <translation>查表：独热 × E</translation>
        </message>
        <message>
            <source>X = E·√d + PE</source>
            <translation>X = E·√d + PE</translation>
        </message>
        <message>
            <source>Scale gauge: why √d_model</source>
            <translation>量级对比：为什么乘 √d_model</translation>
        </message>
        <message>
            <source>Chip: token, ID · position.</source>
            <translation>标签：词元，ID · 位置。</translation>
        </message>
        <message>
            <source>special token</source>
            <translation>特殊词元</translation>
        </message>
        <message>
            <source>partial UTF-8 bytes (hex)</source>
            <translation>不完整的 UTF-8 字节（十六进制）</translation>
        </message>
        <message>
            <source>unknown ([UNK])</source>
            <translation>未知（[UNK]）</translation>
        </message>
        <message>
            <source>␣ = space</source>
            <translation>␣ = 空格</translation>
        </message>
        <message>
            <source>The text has %1 characters; at most %2 can be tokenized. Shorten it to see its tokens.</source>
            <translation>文本有 %1 个字符，最多只能切分 %2 个。请缩短文本以查看词元。</translation>
        </message>
        <message>
            <source>one-hot (%1 × %2 used ids)</source>
            <translation>独热矩阵（%1 × %2 个用到的 ID）</translation>
        </message>
        <message>
            <source>E rows of those ids (%1 × %2)</source>
            <translation>这些 ID 在 E 中的行（%1 × %2）</translation>
        </message>
        <message>
            <source>E[ids]: the sentence's rows</source>
            <translation>E[ids]：这句话对应的行</translation>
        </message>
        <message>
            <source>word embedding E[ids]</source>
            <translation>词嵌入 E[ids]</translation>
        </message>
        <message>
            <source>E[ids] × √%1 = %2</source>
            <translation>E[ids] × √%1 = %2</translation>
        </message>
        <message>
            <source>PE[0 … %1]</source>
            <translation>PE[0 … %1]</translation>
        </message>
        <message>
            <source>X (LayerNorm follows)</source>
            <translation>X（其后接 LayerNorm）</translation>
        </message>
        <message>
            <source>X, the input</source>
            <translation>X，即输入</translation>
        </message>
        <message>
            <source>untrained, seed %1 (d = %2)</source>
            <translation>未训练，种子 %1（d = %2）</translation>
        </message>
        <message>
            <source>position %1 “%2”, channel %3: E·scale = %4  +  PE = %5  =  X = %6</source>
            <translation>位置 %1“%2”，通道 %3：E·缩放 = %4  +  PE = %5  =  X = %6</translation>
        </message>
    </context>
    <context>
        <name>View</name>
        <message>
            <source>%1 channels per pixel column</source>
            <translation>每列像素含 %1 个通道</translation>
        </message>
        <message>
            <source>%1 positions per pixel row</source>
            <translation>每行像素含 %1 个位置</translation>
        </message>
        <message>
            <source> (averaged: zoom in for single values)</source>
            <translation>（已取平均：放大可看单个值）</translation>
        </message>
    </context>
</TS>
